// The pad value of every input tensor (tile_ops.h pad_values): the first choice among the consumers' identities, per
// tensor whose padding some block reads, under which no reduction or gemm reads padding other than its identity
// (tile_padding_values.cc follows what each value's padding holds).
#include <algorithm>
#include <set>

#include "engine_common.h"
#include "records.h"
#include "tile_ops_util.h"

namespace tl {

std::map<std::string, double> pad_values(const std::vector<TileOp>& ops, const Any& func,
                                         const std::map<std::string, double>& identities) {
  std::vector<std::string> padded;  // the input tensors whose padding some block reads
  for (const TileOp& op : ops) {
    if ((op.kind == tile_op::kCopyIn || op.kind == tile_op::kRowsIn) && (op.pad_rows || op.pad_cols) &&
        std::find(padded.begin(), padded.end(), op.tensor->name) == padded.end()) {
      padded.push_back(op.tensor->name);
    }
  }
  std::vector<double> choices;  // the identities, in the spec's order, each once (0 first when present)
  for (const auto& [consumer, value] : identities) {
    if (std::find(choices.begin(), choices.end(), value) == choices.end()) choices.push_back(value);
  }
  std::sort(choices.begin(), choices.end(), [](double a, double b) { return (a == 0) > (b == 0); });
  if (choices.empty()) choices.push_back(0.0);
  std::map<std::string, double> pads;
  std::set<std::string> index_tables;
  Dict constants = attr_dict(func, keys::kTtConstants);
  for (const BufferInfo& t : tensor_params(func)) {
    pads[t.name] = choices.front();
    Any entry = get(constants, t.name);
    bool index = entry != nullptr && get(as_dict(entry), records::tensor_constant::kIndex) != nullptr;
    if (index) index_tables.insert(t.name);
  }
  size_t count = 1;
  for (size_t i = 0; i < padded.size() && count <= 4096; ++i) count *= choices.size();
  std::optional<std::vector<std::string>> fewest;
  for (size_t pick = 0; pick < std::min<size_t>(count, 4096); ++pick) {
    std::map<std::string, double> trial = pads;
    size_t rest = pick;
    for (const std::string& name : padded) {
      trial[name] = choices[rest % choices.size()];
      rest /= choices.size();
    }
    std::vector<std::string> violations = padding_violations(ops, trial, identities, index_tables);
    if (violations.empty()) return trial;
    if (!fewest || violations.size() < fewest->size()) fewest = violations;
  }
  fail((*fewest)[0] + "; the tenstorrent backend masks padding (index masks, issue 28) only before a row "
       "reduction over ragged columns (a column reduction over ragged rows) of a gemm's product (max, min), of a "
       "value computed from a per-row (per-column) vector or not 0 where its operands are 0, such as x + 1 (sum), "
       "or of a value that reductions of different identities read: use whole tiles and blocks that divide the "
       "tensor along that dim, or reduce a value of one of those forms");
}

}  // namespace tl
