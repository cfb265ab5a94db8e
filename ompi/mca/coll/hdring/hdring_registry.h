/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
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
 *   STEM     its functions: hdring_run_<STEM> (hdring_algorithms.c, hdring_hier.c), hdring_scratch_<STEM>,
 *            hdring_cost_<STEM> (hdring_cost.c)
 *   INNER    NONE for a flat algorithm; for a hierarchical one (names hier_*), the flat algorithm it runs across
 *            nodes (the phases within nodes are the model's choice)
 *   SEGMENT  WHOLE when it moves its blocks whole (a bcast's one block: the message); SPLIT when it cuts a block
 *            into parts (a bcast's scatter); PIPELINED when it cuts them into segments that follow each other
 *            through the ranks (a bcast's message, a ring's blocks, reduced as they arrive), the model choosing
 *            their size with hdring_segment_<STEM> (hdring_cost.c); coll_hdring_<coll>_segment_bytes overrides it.
 *            Ranks may describe one block with different datatypes: an algorithm that cuts blocks runs on bytes
 *   SUMMARY  one line for ompi_info
 * Within a collective, rows are in the order the model lists them; a tie in predicted time (within the model's
 * resolution, hdring_cost_pick) goes to the earlier row. The flat bcast precedes the binomial one: where the
 * model sees them equal (p = 2 and 3 above the eager limit, where they send the same messages; ranks sharing
 * cores) the tree with no rank forwarding the message is the faster one measured. The binary bcast precedes the
 * binomial one: where the model sees them equal (p = 4 to 6 across nodes; p = 4 within one, where they are one
 * shape) its root sends 2 messages, not ceil(log2 p), and is free sooner for the next call.
 */
#ifndef HDRING_REGISTRY_H
#define HDRING_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "hdring_pattern.h"
#include "hdring_topo.h"
#include "hdring_transport.h"

#define HDRING_ALGORITHM_TABLE(X)                                                                                     \
    X(ALLREDUCE_RECURSIVE_DOUBLING, ALLREDUCE, "recursive_doubling", 4, KEEPS_ORDER, LATENCY,                         \
      allreduce_recursive_doubling, NONE, WHOLE,                                                                      \
      "whole vector exchanged log2(p) times: latency-optimal, for small vectors")                                     \
    X(ALLREDUCE_RHD, ALLREDUCE, "rhd", 2, KEEPS_ORDER, OTHER, allreduce_rhd, NONE, WHOLE,                             \
      "recursive halving-doubling (Rabenseifner); sizes that are not a power of two fold first")                      \
    X(ALLREDUCE_BINARY_BLOCKS, ALLREDUCE, "binary_blocks", 3, KEEPS_ORDER, OTHER, allreduce_binary_blocks, NONE,      \
      WHOLE, "p split into power-of-two blocks that halve and double within themselves; no rank folded away")         \
    X(ALLREDUCE_RING, ALLREDUCE, "ring", 1, ANY_ORDER, BANDWIDTH, allreduce_ring, NONE, PIPELINED,                    \
      "bandwidth-optimal for any p, latency linear in p, blocks reduced in segments as they arrive; commutative "     \
      "operations only")                                                                                              \
    X(ALLREDUCE_HIER_RECURSIVE_DOUBLING, ALLREDUCE, "hier_recursive_doubling", 8, ANY_ORDER, OTHER, allreduce_hier,   \
      ALLREDUCE_RECURSIVE_DOUBLING, WHOLE, HIER_ALLREDUCE_SUMMARY "recursive_doubling across nodes")                  \
    X(ALLREDUCE_HIER_RHD, ALLREDUCE, "hier_rhd", 6, ANY_ORDER, OTHER, allreduce_hier, ALLREDUCE_RHD, WHOLE,           \
      HIER_ALLREDUCE_SUMMARY "rhd across nodes")                                                                      \
    X(ALLREDUCE_HIER_BINARY_BLOCKS, ALLREDUCE, "hier_binary_blocks", 7, ANY_ORDER, OTHER, allreduce_hier,             \
      ALLREDUCE_BINARY_BLOCKS, WHOLE, HIER_ALLREDUCE_SUMMARY "binary_blocks across nodes")                            \
    X(ALLREDUCE_HIER_RING, ALLREDUCE, "hier_ring", 5, ANY_ORDER, OTHER, allreduce_hier, ALLREDUCE_RING, WHOLE,        \
      HIER_ALLREDUCE_SUMMARY "ring across nodes")                                                                     \
    X(ALLREDUCE_HIER_PIPELINED, ALLREDUCE, "hier_pipelined", 9, ANY_ORDER, OTHER, allreduce_hier_pipelined,           \
      ALLREDUCE_RING, PIPELINED, "hierarchical, its levels overlapped per segment: each segment's ring "              \
      "reduce-scatter within the node, ring allreduce across the nodes and ring allgather within the node run while " \
      "the next segment's start; commutative operations only")                                                       \
    X(REDUCE_SCATTER_RHD, REDUCE_SCATTER, "rhd", 2, KEEPS_ORDER, OTHER, reduce_scatter_rhd, NONE, WHOLE,              \
      "recursive halving on equal positions; sizes that are not a power of two fold halves first")                   \
    X(REDUCE_SCATTER_RECURSIVE_HALVING, REDUCE_SCATTER, "recursive_halving", 8, KEEPS_ORDER, LATENCY,                 \
      reduce_scatter_recursive_halving, NONE, WHOLE,                                                                  \
      "recursive halving on block boundaries; sizes that are not a power of two fold whole vectors first: "           \
      "floor(log2 p)+2 steps, for small vectors")                                                                     \
    X(REDUCE_SCATTER_BINARY_BLOCKS, REDUCE_SCATTER, "binary_blocks", 3, KEEPS_ORDER, OTHER,                           \
      reduce_scatter_binary_blocks, NONE, WHOLE, "p split into power-of-two blocks that halve within themselves")     \
    X(REDUCE_SCATTER_RING, REDUCE_SCATTER, "ring", 1, ANY_ORDER, BANDWIDTH, reduce_scatter_ring, NONE, PIPELINED,     \
      "bandwidth-optimal for any p, latency linear in p, blocks reduced in segments as they arrive; commutative "     \
      "operations only")                                                                                              \
    X(REDUCE_SCATTER_BRUCK, REDUCE_SCATTER, "bruck", 7, ANY_ORDER, OTHER, reduce_scatter_bruck, NONE, WHOLE,         \
      "ceil(log2 p) steps for any p, each block reduced once per step; commutative operations only")                 \
    X(REDUCE_SCATTER_HIER_RHD, REDUCE_SCATTER, "hier_rhd", 5, ANY_ORDER, OTHER, reduce_scatter_hier,                  \
      REDUCE_SCATTER_RHD, WHOLE, HIER_REDUCE_SCATTER_SUMMARY "rhd across nodes")                                      \
    X(REDUCE_SCATTER_HIER_BINARY_BLOCKS, REDUCE_SCATTER, "hier_binary_blocks", 6, ANY_ORDER, OTHER,                   \
      reduce_scatter_hier, REDUCE_SCATTER_BINARY_BLOCKS, WHOLE,                                                       \
      HIER_REDUCE_SCATTER_SUMMARY "binary_blocks across nodes")                                                       \
    X(REDUCE_SCATTER_HIER_RING, REDUCE_SCATTER, "hier_ring", 4, ANY_ORDER, OTHER, reduce_scatter_hier,                \
      REDUCE_SCATTER_RING, WHOLE, HIER_REDUCE_SCATTER_SUMMARY "ring across nodes")                                    \
    X(ALLGATHER_RHD, ALLGATHER, "rhd", 2, KEEPS_ORDER, LATENCY, allgather_rhd, NONE, WHOLE,                           \
      "recursive doubling; sizes that are not a power of two fold")                                                   \
    X(ALLGATHER_BINARY_BLOCKS, ALLGATHER, "binary_blocks", 3, KEEPS_ORDER, OTHER, allgather_binary_blocks, NONE,      \
      WHOLE, "p split into power-of-two blocks that double within themselves")                                        \
    X(ALLGATHER_RING, ALLGATHER, "ring", 1, KEEPS_ORDER, BANDWIDTH, allgather_ring, NONE, WHOLE,                      \
      "bandwidth-optimal, latency linear in p")                                                                       \
    X(ALLGATHER_BRUCK, ALLGATHER, "bruck", 7, KEEPS_ORDER, OTHER, allgather_bruck, NONE, WHOLE,                       \
      "ceil(log2 p) steps for any p, every block moving once")                                                        \
    X(ALLGATHER_HIER_RHD, ALLGATHER, "hier_rhd", 5, KEEPS_ORDER, OTHER, allgather_hier, ALLGATHER_RHD, WHOLE,         \
      HIER_ALLGATHER_SUMMARY "rhd across nodes")                                                                      \
    X(ALLGATHER_HIER_BINARY_BLOCKS, ALLGATHER, "hier_binary_blocks", 6, KEEPS_ORDER, OTHER, allgather_hier,           \
      ALLGATHER_BINARY_BLOCKS, WHOLE, HIER_ALLGATHER_SUMMARY "binary_blocks across nodes")                            \
    X(ALLGATHER_HIER_RING, ALLGATHER, "hier_ring", 4, KEEPS_ORDER, OTHER, allgather_hier, ALLGATHER_RING, WHOLE,      \
      HIER_ALLGATHER_SUMMARY "ring across nodes")                                                                     \
    X(BCAST_FLAT, BCAST, "flat", 9, KEEPS_ORDER, OTHER, bcast_flat, NONE, WHOLE,                                      \
      "flat tree: the root sends the whole message to every rank, at most 16 at a time, for a node whose ranks "     \
      "copy in parallel")                                                                                             \
    X(BCAST_BINARY, BCAST, "binary", 10, KEEPS_ORDER, OTHER, bcast_binary, NONE, WHOLE,                             \
      "binary tree of the whole message: the root sends it twice, for small messages across nodes")                   \
    X(BCAST_BINOMIAL, BCAST, "binomial", 1, KEEPS_ORDER, LATENCY, bcast_binomial, NONE, WHOLE,                        \
      "binomial tree of the whole message, for small messages")                                                       \
    X(BCAST_SCATTER_RHD, BCAST, "scatter_rhd", 2, KEEPS_ORDER, OTHER, bcast_scatter_rhd, NONE, SPLIT,                 \
      "binomial scatter + recursive-doubling allgather")                                                              \
    X(BCAST_SCATTER_RING, BCAST, "scatter_ring", 3, KEEPS_ORDER, OTHER, bcast_scatter_ring, NONE, SPLIT,              \
      "binomial scatter + ring allgather")                                                                            \
    X(BCAST_CHAIN, BCAST, "chain", 7, KEEPS_ORDER, BANDWIDTH, bcast_chain, NONE, PIPELINED,                           \
      "pipelined chain: segments of the message pass down all ranks in locality order, every link busy at once")      \
    X(BCAST_DOUBLE_TREE, BCAST, "double_tree", 8, KEEPS_ORDER, OTHER, bcast_double_tree, NONE, PIPELINED,             \
      "pipelined double binary tree: each half of the message in segments down one of two complementary binary "      \
      "trees, every link busy at once and log2 p steps deep")                                                         \
    X(BCAST_HIER_BINOMIAL, BCAST, "hier_binomial", 4, KEEPS_ORDER, OTHER, bcast_hier, BCAST_BINOMIAL, WHOLE,          \
      HIER_BCAST_SUMMARY "binomial among them")                                                                       \
    X(BCAST_HIER_SCATTER_RHD, BCAST, "hier_scatter_rhd", 5, KEEPS_ORDER, OTHER, bcast_hier, BCAST_SCATTER_RHD,        \
      WHOLE, HIER_BCAST_SUMMARY "scatter_rhd among them")                                                             \
    X(BCAST_HIER_SCATTER_RING, BCAST, "hier_scatter_ring", 6, KEEPS_ORDER, OTHER, bcast_hier, BCAST_SCATTER_RING,     \
      WHOLE, HIER_BCAST_SUMMARY "scatter_ring among them")

/* The hierarchical algorithms (hdring_hier.c) run flat algorithms on the ranks of each node and on the ranks with
 * the same index on every node; commutative operations only; nodes of equal size. */
#define HIER_ALLREDUCE_SUMMARY "hierarchical: reduce-scatter within each node, allreduce of each slice, allgather; "
#define HIER_REDUCE_SCATTER_SUMMARY "hierarchical: reduce-scatter within each node, then of each slice; "
#define HIER_ALLGATHER_SUMMARY "hierarchical: allgather of each slice across nodes, then within each node; "
#define HIER_BCAST_SUMMARY "hierarchical: one rank per node broadcasts across nodes, then each node within; "

/* The collectives of the core. */
typedef enum hdring_coll {
    HDRING_COLL_ALLREDUCE,
    HDRING_COLL_REDUCE_SCATTER,
    HDRING_COLL_ALLGATHER,
    HDRING_COLL_BCAST,
    HDRING_NCOLLS
} hdring_coll_t;

#define HDRING_ALG_ID(ID, COLL, NAME, VALUE, ORDER, ROLE, STEM, INNER, SEGMENT, SUMMARY) HDRING_ALG_##ID,
typedef enum hdring_alg { HDRING_ALGORITHM_TABLE(HDRING_ALG_ID) HDRING_NALGS } hdring_alg_t;
#undef HDRING_ALG_ID
#define HDRING_ALG_NONE HDRING_NALGS /* no algorithm */

typedef enum hdring_role { HDRING_ROLE_LATENCY, HDRING_ROLE_BANDWIDTH, HDRING_ROLE_OTHER } hdring_role_t;

/* The phases of a hierarchical algorithm: first and last within each node, across nodes between them. */
enum { HDRING_PHASE_INTRA_FIRST, HDRING_PHASE_INTER, HDRING_PHASE_INTRA_LAST, HDRING_NPHASES };

/* What one call gives its algorithm, beyond the transport's buffers (see hdring_algorithms.h). */
typedef struct hdring_args {
    size_t count;                  /* allreduce, bcast: elements of the vector */
    const hdring_blocks_t *blocks; /* reduce_scatter, allgather */
    bool ordered;                  /* reduce_scatter: keep operand order */
    int root;                      /* bcast: the algorithm rank holding the message */
    bool near_first;               /* ranks in locality order on several nodes of several ranks: schedules that can
                                      choose put their largest exchanges between neighbouring ranks */
    size_t segment;                /* pipelined (a PIPELINED row, or a hierarchical bcast's pipelined phase):
                                      elements per segment; 0 moves messages whole */
    int nodes, ppn;                /* hierarchical: node j holds ranks j ppn .. j ppn + ppn - 1 */
    hdring_alg_t phase[HDRING_NPHASES]; /* hierarchical: the flat algorithm of each phase */
} hdring_args_t;

typedef struct hdring_scratch {
    size_t tmp, work; /* elements */
} hdring_scratch_t;

typedef struct hdring_cost_params {
    double alpha;    /* seconds per message */
    double beta;     /* seconds per byte moved */
    double gamma;    /* seconds per byte reduced */
    double exchange; /* seconds per byte moved each way while exchanging with one peer (beta on a full-duplex
                        link) */
    double eager;    /* bytes a message carries without a rendezvous first (0: any) */
} hdring_cost_params_t;

/* What the predicted time of a call depends on besides its size (hdring_cost.h). */
typedef struct hdring_model {
    int p;
    bool ordered;         /* operand order kept: ranks in rank order; otherwise in locality order */
    hdring_shape_t shape; /* where the ranks sit (hdring_topo.h) */
    int concurrent;       /* copies of the collective running at once on each node, sharing its link (1) */
    hdring_cost_params_t local;   /* between the ranks of one node; gamma: the reduction */
    hdring_cost_params_t network; /* between nodes, per direction of a node's link; gamma unused */
    double segment;               /* pipelined algorithms: bytes per segment; 0: the fastest the model finds */
} hdring_model_t;

typedef struct hdring_algorithm {
    hdring_alg_t id;
    hdring_coll_t coll;
    const char *name;
    int mca_value;
    bool keeps_order;
    hdring_role_t role;
    hdring_alg_t inner; /* hierarchical: its algorithm across nodes; HDRING_ALG_NONE for a flat one */
    /* Pipelined: the segment size in bytes the model chooses for a message of n bytes (m->segment when set);
     * NULL when it moves its blocks whole or split. */
    double (*segment)(const hdring_model_t *m, double n);
    bool cuts; /* it cuts a block into parts (SPLIT or PIPELINED) */
    const char *summary;
    /* Runs it on the calling rank (hdring_algorithms.h). */
    int (*run)(const hdring_xport_t *x, const hdring_args_t *a);
    /* TMP and WORK it needs, in elements, for p ranks. */
    hdring_scratch_t (*scratch)(const hdring_xport_t *x, const hdring_args_t *a);
    /* Predicted time of one call, n the whole vector in bytes (hdring_cost.h); a hierarchical algorithm also
     * returns the phases the model chooses (phase: HDRING_NPHASES entries). */
    double (*cost)(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase);
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
