// The pass engines (one per rule kind, declared from generator/rules.py's table) and the hand-written hooks
// pass specs may name in `hook` rules. Generated pass sources include this header.
#pragma once

#include "engine_decls.h"
#include "engine_types.h"

namespace tl {

namespace hooks {
// The hand-written passes pass specs name in `hook` rules (cpu_lowering.cc, loop_tile_ops.cc).
Any blockidx_to_serial();
Any lower_tile_primitives();
// A CUDA block on T.Kernel's threads (cuda_threads.cc).
Any bind_cuda_threads();
// A block's per-thread body as loops over the thread indices, for targets without threads (thread_loops.cc).
Any serialize_threads();
// Loops that are tile operations written element by element (loop_tile_ops.cc).
Any loops_to_tile_ops();
// A function's T.Kernel launches as one PrimFunc (one program) each (programs.cc).
Any split_tt_programs();
// The T.Kernel grid split over a mesh of chips, tensors sharded or replicated (mesh.cc).
Any partition_tt_mesh(const Dict& options);
}  // namespace hooks

}  // namespace tl
