/*
 * hdring cost model: the alpha-beta-gamma time of every algorithm in closed form, MPI-free.
 *
 * The model is the simulator's (test/sim): a message of b bytes takes alpha + b beta once both ends have
 * posted it, each rank has one send and one receive port (messages of one exchange queue on a port), sends
 * are synchronous, reducing b bytes takes b gamma, copies are free. n is the whole vector in bytes
 * (reduce_scatter and allgather: p equal blocks of n/p).
 *
 * Exact (equal to the simulator's critical path; tested for p up to 40 and powers of two up to 256) when the
 * vector divides evenly (n a multiple of p and of 2p' elements), for every algorithm and p except binary-block
 * reduce_scatter and allgather and scatter_rhd bcast on p not a power of two: those charge their
 * redistribution with its busiest port, an upper bound (tested within 25%). Per-rank bytes (hdring_cost_volume) are exact for every allreduce algorithm, ring
 * reduce_scatter and allgather, and rhd reduce_scatter (commutative) and allgather on powers of two.
 */
#ifndef HDRING_COST_H
#define HDRING_COST_H

#include <stdbool.h>

#include "hdring_registry.h"

/* The model's parameters from the MCA parameters' units: microseconds per message, MB/s moved and reduced. */
hdring_cost_params_t hdring_cost_params_of(double latency_us, double bandwidth_mbs, double reduce_mbs);

/* Predicted time of one call of algorithm `alg`; negative for an unknown id. `ordered`: reduce_scatter keeping
 * operand order (rhd then delivers bit-reversed positions). The registry's cost column. */
double hdring_cost_time(hdring_alg_t alg, int p, double n, bool ordered, const hdring_cost_params_t *c);

#define HDRING_COST_DECLARE(ID, COLL, NAME, VALUE, ORDER, ROLE, STEM, SUMMARY)                                      \
    double hdring_cost_##STEM(int p, double n, bool ordered, const hdring_cost_params_t *c);
HDRING_ALGORITHM_TABLE(HDRING_COST_DECLARE)
#undef HDRING_COST_DECLARE

/* Bytes one rank sends, receives and reduces, for the cases listed above; negative where not modelled. */
typedef struct hdring_volume {
    double sent, received, reduced;
} hdring_volume_t;

hdring_volume_t hdring_cost_volume(hdring_alg_t alg, int p, int rank, double n);

#endif
