// Prints tilize_nfaces of a 64x64 matrix holding 0, 1, 2, ... in row-major order (checked against numpy).
#include <cstdio>
#include <vector>

#include <tt-metalium/tilize_utils.hpp>

int main() {
    std::vector<int> m(64 * 64);
    for (int i = 0; i < 64 * 64; ++i) m[i] = i;
    const std::vector<int> t = tilize_nfaces(m, 64, 64);
    for (int v : t) std::printf("%d\n", v);
    return untilize_nfaces(t, 64, 64) == m ? 0 : 1;
}
