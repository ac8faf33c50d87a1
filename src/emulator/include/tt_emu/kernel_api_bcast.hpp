// The broadcast binary operations of the compute API (bcast.h; kapi_bcast.cpp): a column vector (column 0 of tile
// itile1 of icb1) across the columns of tile itile0 of icb0, a row vector (its row 0) down the rows, or a scalar (its
// element (0, 0)) over the whole tile; the 2025 API spells the inits *_init_short (and the scalar ones
// add_bcast_scalar_init_short, sub/mul_tiles_bcast_scalar_init_short). Included by kernel_api.hpp.
#pragma once

#include <cstdint>

namespace tt_emu::kapi {

void add_bcast_cols_init(uint32_t icb0, uint32_t icb1);
void sub_bcast_cols_init(uint32_t icb0, uint32_t icb1);
void mul_bcast_cols_init(uint32_t icb0, uint32_t icb1);
void add_bcast_cols_init_short(uint32_t icb0, uint32_t icb1);
void sub_bcast_cols_init_short(uint32_t icb0, uint32_t icb1);
void mul_bcast_cols_init_short(uint32_t icb0, uint32_t icb1);
void add_tiles_bcast_cols(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst);
void sub_tiles_bcast_cols(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst);
void mul_tiles_bcast_cols(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst);
void add_bcast_rows_init(uint32_t icb0, uint32_t icb1);
void mul_bcast_rows_init(uint32_t icb0, uint32_t icb1);
void add_bcast_rows_init_short(uint32_t icb0, uint32_t icb1);
void mul_bcast_rows_init_short(uint32_t icb0, uint32_t icb1);
void add_tiles_bcast_rows(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst);
void mul_tiles_bcast_rows(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst);
void add_bcast_scalar_init(uint32_t icb0, uint32_t icb1);
void sub_bcast_scalar_init(uint32_t icb0, uint32_t icb1);
void mul_bcast_scalar_init(uint32_t icb0, uint32_t icb1);
void add_bcast_scalar_init_short(uint32_t icb0, uint32_t icb1);
void sub_tiles_bcast_scalar_init_short(uint32_t icb0, uint32_t icb1);
void mul_tiles_bcast_scalar_init_short(uint32_t icb0, uint32_t icb1);
void add_tiles_bcast_scalar(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst);
void sub_tiles_bcast_scalar(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst);
void mul_tiles_bcast_scalar(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst);

}  // namespace tt_emu::kapi
