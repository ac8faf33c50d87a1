// The element-wise add of ../metal (binary_op_init_common and add_tiles_init: ttnn 0.77.0 has them, 0.81.1 not).
#include "../metal/compute_add.cpp"
