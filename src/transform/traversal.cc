// Structural walk and map over IR (traversal.h).
#include "traversal.h"

#include <tvm/ffi/c_api.h>

#include <cstring>
#include <mutex>
#include <type_traits>
#include <unordered_map>

namespace tl {

// The walk/map engines take type indices; entries name types by the type keys of the generated views.
static int32_t type_index(const char* key) {
  static std::mutex lock;
  static std::unordered_map<std::string, int32_t> cache;
  std::lock_guard<std::mutex> guard(lock);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  int32_t index;
  TVMFFIByteArray bytes = {key, std::strlen(key)};
  if (TVMFFITypeKeyToIndex(&bytes, &index) != 0) internal_error(std::string("unknown IR type '") + key + "'");
  cache.emplace(key, index);
  return index;
}

template <typename Callback>
static List entries_of(const std::vector<std::pair<const char*, Callback>>& entries) {
  List out;
  for (const auto& [key, callback] : entries) {
    Callback cb = callback;
    out.push_back(list({type_index(key), Function::FromTyped([cb](Any value) -> Any {
                          if constexpr (std::is_same_v<Callback, Visit>) {
                            cb(value);
                            return Any(nullptr);
                          } else {
                            return cb(value);
                          }
                        })}));
  }
  return out;
}

void walk(const Any& root, const std::vector<std::pair<const char*, Visit>>& entries) {
  call("ffi.StructuralWalk", root, entries_of(entries), List(), 1);
}

Any map(const Any& root, const std::vector<std::pair<const char*, Rewrite>>& entries, const char* order) {
  return call("ffi.StructuralMap", root, entries_of(entries), List(), std::strcmp(order, "pre") == 0 ? 0 : 1);
}

}  // namespace tl
