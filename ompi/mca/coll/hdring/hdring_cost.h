/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring cost model: the alpha-beta-gamma time of every algorithm, MPI-free.
 *
 * The model is the simulator's (test/sim): a message of b bytes takes alpha + b beta once both ends have
 * posted it, the messages a rank receives queue on its receive port, sends are synchronous, reducing b bytes
 * takes b gamma, copies are free. Within a node the receiver copies each message in, so a rank's sends there
 * overlap (a tree's root feeds all its children at once); across nodes a rank's sends queue on its send port.
 * n is the whole vector in bytes (reduce_scatter and allgather: p equal blocks of n/p). Beyond the simulator, a
 * message larger than the link's eager limit (hdring_cost_params_t.eager; 0 in the tests that compare with the
 * simulator) pays a rendezvous, 2 alpha, one under it is copied by its sender (charged to the flat bcast's root,
 * which sends p - 1; the trees' overlapping sends, at most log2 p from a rank, are not), and a node's ranks share
 * its cores (hdring_shape_t.cores).
 *
 * Two levels (hdring_model_t): messages between the ranks of one node use the local parameters, messages between
 * nodes the network's, a node's link shared by the messages of a step that cross it (beta times their number).
 * Flat algorithms are charged step by step: partners within a node when the node holds an aligned run of them
 * (ranks in locality order, or in rank order mapped by slot), across nodes otherwise. Hierarchical algorithms
 * are the sum of their phases, each the fastest flat algorithm on its sub-group (the model returns that choice);
 * the L index groups crossing the nodes at once share each link but go at their own pace, so one's latency
 * hides behind another's transfer. Against the simulator (links serving one message at a time, first come first
 * served) the multi-node model is exact where a link carries one flow (ring in locality order, one rank per node,
 * the hierarchical bcast), charges a lockstep step of L flows as if all took the whole time (flat rhd: up to 30%
 * over), and lets concurrent groups pipeline perfectly (short phases: up to 45% under); test_hier holds it there.
 *
 * On one node the model is exact (equal to the simulator's critical path; tested for p up to 40 and powers of two
 * up to 256) when the vector divides evenly (n a multiple of p and of 2p' elements), for every algorithm and p
 * except binary-block reduce_scatter and allgather and scatter_rhd bcast on p not a power of two: those charge
 * their redistribution with its busiest port, an upper bound (tested within 25%); the pipelined chain and the
 * segmented ring are exact when their segment divides the message (the ring's, its blocks); the double binary
 * tree is charged its schedule's rounds on average (within 0.7-1.35). Per-rank bytes (hdring_cost_volume) are
 * exact for every allreduce algorithm, ring and Bruck reduce_scatter and allgather, rhd reduce_scatter
 * (commutative) and allgather on powers of two, and the chain and double binary tree broadcasts (even counts);
 * bytes across a node's link (hdring_cost_link_bytes) for the hierarchical algorithms and ring on grids of nodes.
 */
#ifndef HDRING_COST_H
#define HDRING_COST_H

#include <stdbool.h>

#include "hdring_registry.h"

/* The model's parameters from the MCA parameters' units: microseconds per message, MB/s moved and reduced; an
 * exchange moves at the bandwidth each way (set .exchange for a link that is not full duplex). */
hdring_cost_params_t hdring_cost_params_of(double latency_us, double bandwidth_mbs, double reduce_mbs);

/* p ranks on one node with parameters c. */
hdring_model_t hdring_model_single(int p, bool ordered, const hdring_cost_params_t *c);

/* The model's parameters as the MCA parameters give them (coll_hdring_model_*; hdring_defaults.h has the
 * component's defaults). network_exchange_mbs 0: the network's bandwidth, a full-duplex network. */
typedef struct hdring_model_units {
    double latency_us, bandwidth_mbs, reduce_mbs;
    double network_latency_us, network_bandwidth_mbs, network_exchange_mbs;
    double eager_bytes, network_eager_bytes; /* 0: no rendezvous */
} hdring_model_units_t;

/* p ranks of that shape (hdring_topo.h) with those parameters; whole messages (segment 0). */
hdring_model_t hdring_model_of(int p, bool ordered, const hdring_shape_t *shape, const hdring_model_units_t *u);

/* Whether algorithm `alg` can serve calls of this model: it keeps the operand order when that is needed, and a
 * hierarchical one needs several nodes of several ranks, all of one size. */
bool hdring_cost_applies(hdring_alg_t alg, const hdring_model_t *m);

/* The model's resolution: predicted times within 1% of the fastest are ties. Its parameters are measured to about
 * 1% (hdring-tune's control) and its multi-node sums are exact only where a link carries one flow, so a smaller
 * lead predicts nothing; a tie goes to the algorithm the registry lists first, which also keeps choices steady
 * when a parameter moves a little. */
#define HDRING_COST_RESOLUTION 0.01

/* The candidate the model picks among predicted times t[0..n) (negative: not a candidate): the first within the
 * resolution of the fastest; -1 when there is none. */
int hdring_cost_pick(const double *t, int n);

/* Predicted time of one call of algorithm `alg`; negative for an unknown id. A hierarchical algorithm also
 * returns the flat algorithms the model chooses for its phases in phase[HDRING_NPHASES] (phase may be NULL).
 * The registry's cost column. */
double hdring_cost_time(hdring_alg_t alg, const hdring_model_t *m, double n, hdring_alg_t *phase);

/* The segment size in bytes of a pipelined algorithm, or of the pipelined phase of a hierarchical one (phase: the
 * phases hdring_cost_time chose; at most one is pipelined), for a message of n bytes; 0 when none pipelines, or
 * when the model moves the data whole (a ring's blocks). */
double hdring_cost_segment(hdring_alg_t alg, const hdring_model_t *m, double n, const hdring_alg_t *phase);

#define HDRING_SEGMENT_DECLARE_WHOLE(STEM)
#define HDRING_SEGMENT_DECLARE_SPLIT(STEM)
#define HDRING_SEGMENT_DECLARE_PIPELINED(STEM) double hdring_segment_##STEM(const hdring_model_t *m, double n);
#define HDRING_COST_DECLARE(ID, COLL, NAME, VALUE, ORDER, ROLE, STEM, INNER, SEGMENT, SUMMARY)                        \
    double hdring_cost_##STEM(hdring_alg_t self, const hdring_model_t *m, double n, hdring_alg_t *phase);             \
    HDRING_SEGMENT_DECLARE_##SEGMENT(STEM)
HDRING_ALGORITHM_TABLE(HDRING_COST_DECLARE)
#undef HDRING_COST_DECLARE
#undef HDRING_SEGMENT_DECLARE_WHOLE
#undef HDRING_SEGMENT_DECLARE_SPLIT
#undef HDRING_SEGMENT_DECLARE_PIPELINED

/* The largest message collective `coll` sends between ranks of one node as pieces of HDRING_PML_INLINE_BYTES
 * (0: none), `configured` the most it may (coll_hdring_inline_pieces_bytes). Only on a node with more ranks than
 * cores: there a larger message costs a turn of the scheduler, which inline sends avoid (hdring_defaults.h). With
 * fewer than two ranks per core some rank has a core of its own, and an allreduce's messages are its whole vector:
 * at 3 ranks on 2 cores, recursive doubling's middle rank (the fold's survivor) handles all four of them, and when
 * it is the one alone no message waits for the scheduler, so pieces only add to its work. hdring/tuned in that
 * placement, pieces: 1.04-1.08 at 300-512 B, 1.11-1.18 at 768 B-1 KiB; in the other two 0.64-0.79; whole 1.0-1.05
 * in all. There allreduce cuts messages of at most two pieces. */
size_t hdring_cost_pieces_bytes(const hdring_shape_t *shape, hdring_coll_t coll, size_t configured);

/* Bytes one rank sends, receives and reduces, for the cases listed above; negative where not modelled. */
typedef struct hdring_volume {
    double sent, received, reduced;
} hdring_volume_t;

hdring_volume_t hdring_cost_volume(hdring_alg_t alg, int p, int rank, double n);

/* Bytes node `node` sends across its link, on the model's grid of nodes, for the hierarchical algorithms whose
 * phase across nodes has a per-rank volume, and ring in locality order; negative where not modelled. */
double hdring_cost_link_bytes(hdring_alg_t alg, const hdring_model_t *m, int node, double n);

#endif
