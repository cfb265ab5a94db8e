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

#include "hdring_algorithms.h"

typedef enum hdring_cost_coll {
    HDRING_COST_ALLREDUCE,
    HDRING_COST_REDUCE_SCATTER,
    HDRING_COST_ALLGATHER,
    HDRING_COST_BCAST,
    HDRING_COST_NCOLLS
} hdring_cost_coll_t;

typedef struct hdring_cost_params {
    double alpha; /* seconds per message */
    double beta;  /* seconds per byte moved */
    double gamma; /* seconds per byte reduced */
} hdring_cost_params_t;

/* Predicted time of one call. `ordered`: reduce_scatter keeping operand order (rhd then delivers bit-reversed
 * positions). Algorithms the collective does not have: a negative value. */
double hdring_cost_time(hdring_cost_coll_t coll, hdring_alg_t alg, int p, double n, bool ordered,
                        const hdring_cost_params_t *c);

/* Bytes one rank sends, receives and reduces, for the cases listed above; negative where not modelled. */
typedef struct hdring_volume {
    double sent, received, reduced;
} hdring_volume_t;

hdring_volume_t hdring_cost_volume(hdring_cost_coll_t coll, hdring_alg_t alg, int p, int rank, double n);

/* The algorithms the model knows for a collective, in the order the model tool prints them. */
int hdring_cost_algorithms(hdring_cost_coll_t coll, hdring_alg_t *algs);
const char *hdring_cost_coll_name(hdring_cost_coll_t coll);

#endif
