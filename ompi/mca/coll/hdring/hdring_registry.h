/*
 * hdring algorithm registry: the one list of every algorithm of every collective, MPI-free.
 *
 * Each row of HDRING_ALGORITHM_TABLE names an algorithm of one collective. Everything else is derived from it:
 * the algorithm ids (hdring_alg_t), the MCA enums coll_hdring_<coll>_algorithm and their help text, the cost
 * model's candidates, the automatic decision, hdring_model, and the unit tests. The MPI tests and perf scripts
 * read the names from ompi_info or MPI_T. Adding an algorithm is adding a row and its three functions.
 *
 * Columns:
 *   ID       hdring_alg_t value HDRING_ALG_<ID>
 *   COLL     the collective (hdring_coll_t HDRING_COLL_<COLL>); MPI_Reduce_scatter_block uses reduce_scatter's
 *   NAME     the name users give in coll_hdring_<coll>_algorithm and read in the trace
 *   VALUE    its number in that MCA enum (0 is auto); stable across releases
 *   ORDER    KEEPS_ORDER when it combines operands in rank order (non-commutative operations), else ANY_ORDER
 *   ROLE     LATENCY: what coll_hdring_<coll>_small_bytes_* selects; BANDWIDTH: what _large_bytes_* selects;
 *            OTHER otherwise
 *   STEM     its functions: hdring_run_<STEM> (hdring_algorithms.c), hdring_scratch_<STEM>, hdring_cost_<STEM>
 *            (hdring_cost.c)
 *   SUMMARY  one line for ompi_info
 * Within a collective, rows are in the order the model lists them; a tie in predicted time goes to the
 * earlier row.
 */
#ifndef HDRING_REGISTRY_H
#define HDRING_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "hdring_pattern.h"
#include "hdring_transport.h"

#define HDRING_ALGORITHM_TABLE(X)                                                                                     \
    X(ALLREDUCE_RECURSIVE_DOUBLING, ALLREDUCE, "recursive_doubling", 4, KEEPS_ORDER, LATENCY,                        \
      allreduce_recursive_doubling, "whole vector exchanged log2(p) times: latency-optimal, for small vectors")     \
    X(ALLREDUCE_RHD, ALLREDUCE, "rhd", 2, KEEPS_ORDER, OTHER, allreduce_rhd,                                         \
      "recursive halving-doubling (Rabenseifner); sizes that are not a power of two fold first")                   \
    X(ALLREDUCE_BINARY_BLOCKS, ALLREDUCE, "binary_blocks", 3, KEEPS_ORDER, OTHER, allreduce_binary_blocks,           \
      "p split into power-of-two blocks that halve and double within themselves; no rank folded away")             \
    X(ALLREDUCE_RING, ALLREDUCE, "ring", 1, ANY_ORDER, BANDWIDTH, allreduce_ring,                                    \
      "bandwidth-optimal for any p, latency linear in p; commutative operations only")                             \
    X(REDUCE_SCATTER_RHD, REDUCE_SCATTER, "rhd", 2, KEEPS_ORDER, LATENCY, reduce_scatter_rhd,                        \
      "recursive halving; sizes that are not a power of two fold first")                                           \
    X(REDUCE_SCATTER_BINARY_BLOCKS, REDUCE_SCATTER, "binary_blocks", 3, KEEPS_ORDER, OTHER,                          \
      reduce_scatter_binary_blocks, "p split into power-of-two blocks that halve within themselves")               \
    X(REDUCE_SCATTER_RING, REDUCE_SCATTER, "ring", 1, ANY_ORDER, BANDWIDTH, reduce_scatter_ring,                     \
      "bandwidth-optimal for any p, latency linear in p; commutative operations only")                             \
    X(ALLGATHER_RHD, ALLGATHER, "rhd", 2, KEEPS_ORDER, LATENCY, allgather_rhd,                                       \
      "recursive doubling; sizes that are not a power of two fold")                                                \
    X(ALLGATHER_BINARY_BLOCKS, ALLGATHER, "binary_blocks", 3, KEEPS_ORDER, OTHER, allgather_binary_blocks,           \
      "p split into power-of-two blocks that double within themselves")                                            \
    X(ALLGATHER_RING, ALLGATHER, "ring", 1, KEEPS_ORDER, BANDWIDTH, allgather_ring,                                  \
      "bandwidth-optimal, latency linear in p")                                                                    \
    X(BCAST_BINOMIAL, BCAST, "binomial", 1, KEEPS_ORDER, LATENCY, bcast_binomial,                                    \
      "binomial tree of the whole message, for small messages")                                                    \
    X(BCAST_SCATTER_RHD, BCAST, "scatter_rhd", 2, KEEPS_ORDER, OTHER, bcast_scatter_rhd,                             \
      "binomial scatter + recursive-doubling allgather")                                                           \
    X(BCAST_SCATTER_RING, BCAST, "scatter_ring", 3, KEEPS_ORDER, BANDWIDTH, bcast_scatter_ring,                      \
      "binomial scatter + ring allgather")

/* The collectives of the core. */
typedef enum hdring_coll {
    HDRING_COLL_ALLREDUCE,
    HDRING_COLL_REDUCE_SCATTER,
    HDRING_COLL_ALLGATHER,
    HDRING_COLL_BCAST,
    HDRING_NCOLLS
} hdring_coll_t;

#define HDRING_ALG_ID(ID, COLL, NAME, VALUE, ORDER, ROLE, STEM, SUMMARY) HDRING_ALG_##ID,
typedef enum hdring_alg { HDRING_ALGORITHM_TABLE(HDRING_ALG_ID) HDRING_NALGS } hdring_alg_t;
#undef HDRING_ALG_ID

typedef enum hdring_role { HDRING_ROLE_LATENCY, HDRING_ROLE_BANDWIDTH, HDRING_ROLE_OTHER } hdring_role_t;

/* What one call gives its algorithm, beyond the transport's buffers (see hdring_algorithms.h). */
typedef struct hdring_args {
    size_t count;                     /* allreduce, bcast: elements of the vector */
    const hdring_partition_t *blocks; /* reduce_scatter, allgather: p blocks, block b belongs to rank b */
    bool ordered;                     /* reduce_scatter: keep operand order */
} hdring_args_t;

typedef struct hdring_scratch {
    size_t tmp, work; /* elements */
} hdring_scratch_t;

typedef struct hdring_cost_params {
    double alpha; /* seconds per message */
    double beta;  /* seconds per byte moved */
    double gamma; /* seconds per byte reduced */
} hdring_cost_params_t;

typedef struct hdring_algorithm {
    hdring_alg_t id;
    hdring_coll_t coll;
    const char *name;
    int mca_value;
    bool keeps_order;
    hdring_role_t role;
    const char *summary;
    /* Runs it on the calling rank (hdring_algorithms.h). */
    int (*run)(const hdring_xport_t *x, const hdring_args_t *a);
    /* TMP and WORK it needs, in elements, for p ranks. */
    hdring_scratch_t (*scratch)(int p, const hdring_args_t *a);
    /* Predicted time of one call on p ranks, n the whole vector in bytes (hdring_cost.h). */
    double (*cost)(int p, double n, bool ordered, const hdring_cost_params_t *c);
} hdring_algorithm_t;

/* The row of an algorithm id; NULL for an id out of range. */
const hdring_algorithm_t *hdring_algorithm(hdring_alg_t id);
const char *hdring_alg_name(hdring_alg_t id);
const char *hdring_coll_name(hdring_coll_t coll);

/* The algorithm of `coll` with that name or MCA value; HDRING_NALGS if none. */
hdring_alg_t hdring_alg_by_name(hdring_coll_t coll, const char *name);
hdring_alg_t hdring_alg_by_value(hdring_coll_t coll, int mca_value);

/* The algorithms of `coll` in table order, into algs (room for HDRING_NALGS); returns how many. */
int hdring_algorithms_of(hdring_coll_t coll, hdring_alg_t *algs);

#endif
