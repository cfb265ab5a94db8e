/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring parameters: the MPI collectives hdring provides, and the MCA variables that say how (registered
 * with Open MPI, checked, and taken as a snapshot by each new communicator).
 */
#ifndef MCA_COLL_HDRING_PARAMS_H
#define MCA_COLL_HDRING_PARAMS_H

#include "coll_hdring_ompi.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opal/mca/base/base.h"

#include "hdring_registry.h"

BEGIN_C_DECLS

/* The MPI collectives hdring provides (each served by a collective of the core, hdring_coll_t). */
typedef enum mca_coll_hdring_coll {
    MCA_COLL_HDRING_ALLREDUCE,
    MCA_COLL_HDRING_REDUCE_SCATTER,
    MCA_COLL_HDRING_REDUCE_SCATTER_BLOCK,
    MCA_COLL_HDRING_ALLGATHER,
    MCA_COLL_HDRING_BCAST,
    MCA_COLL_HDRING_NCOLLS
} mca_coll_hdring_coll_t;

/* The core collective serving an MPI collective; the MPI collective's name (as in the MCA parameters); the tag
 * of its blocking calls' messages (coll_tags.h). */
hdring_coll_t mca_coll_hdring_core_coll(mca_coll_hdring_coll_t coll);
const char *mca_coll_hdring_coll_name(mca_coll_hdring_coll_t coll);
int mca_coll_hdring_coll_tag(mca_coll_hdring_coll_t coll);

/* The whole vector's bytes of a call of collective coll on p ranks, `count` elements of `size` bytes (per block for
 * reduce_scatter_block and allgather; reduce_scatter: its counts' sum): the size decisions, thresholds and the
 * trace's bytes= speak of. */
static inline size_t mca_coll_hdring_vector_bytes(mca_coll_hdring_coll_t coll, size_t count, size_t size, int p)
{
    const bool blocks = MCA_COLL_HDRING_REDUCE_SCATTER_BLOCK == coll || MCA_COLL_HDRING_ALLGATHER == coll;
    return (blocks ? (size_t) p : 1) * count * size;
}

/* Index of the thresholds that apply: communicator size a power of two or not. */
enum { HDRING_POF2 = 0, HDRING_NPOF2 = 1 };

/* Everything a communicator's collectives depend on. Each new communicator takes a snapshot, so values written
 * through MPI_T apply to communicators created afterwards (one program can compare configurations side by side). */
typedef struct mca_coll_hdring_config {
    int algorithm[MCA_COLL_HDRING_NCOLLS];         /* value of coll_hdring_<coll>_algorithm; 0 = auto */
    size_t small_bytes[MCA_COLL_HDRING_NCOLLS][2]; /* up to this: latency algorithm; 0 = where the cost model says */
    size_t large_bytes[MCA_COLL_HDRING_NCOLLS][2]; /* from this on: ring; 0 = where the cost model says */
    size_t segment_bytes[MCA_COLL_HDRING_NCOLLS];  /* pipelined algorithms: bytes per segment; 0 = the model's */
    double model_latency_us, model_bandwidth_mbs; /* the cost model's alpha and beta within a node */
    double model_network_latency_us, model_network_bandwidth_mbs; /* ... across nodes */
    double model_network_exchange_mbs; /* ... each way while exchanging with one peer; 0: the bandwidth */
    double model_reduce_mbs;                                      /* its gamma */
    double model_eager_bytes, model_network_eager_bytes; /* larger messages wait for a rendezvous */
    int model_cores;  /* cores per node the model counts: 0 found on the nodes, -1 a core per rank (shape.cores) */
    char *node_map; /* coll_hdring_node_map: read when the communicator is created (never later) */
    int verbose;
    int trace_changes; /* trace only the calls whose arguments differ from their collective's previous call */
    size_t scratch_cache_bytes;
    int nonblocking; /* serve the nonblocking and persistent collectives */
    size_t max_message_elements; /* longer messages go to the PML as one message of a derived datatype */
    size_t inline_pieces_bytes;  /* messages within a node of more than 256 B and at most this go as pieces */
    int check_parameters;        /* which new communicators check that their ranks share the decisive parameters */
    int tolerant;                /* ULFM: an allreduce that loses a rank completes on its survivors */
    int calibrate;               /* measure the network at MPI_COMM_WORLD's creation (coll_hdring_network.h) */
    int select;                  /* MCA_COLL_HDRING_SELECT_*: which calls measure their candidates */
    char *decisions_file;        /* read when the first communicator is created, written at MPI_Finalize */
    int select_slow_rank;        /* for tests: this rank's timed calls of the model's choice take select_slow_us */
    int select_slow_us;          /*   longer (-1, 0: none) */
} mca_coll_hdring_config_t;

/* coll_hdring_select. */
enum {
    MCA_COLL_HDRING_SELECT_MODEL,    /* the model decides every call */
    MCA_COLL_HDRING_SELECT_AUTO,     /* calls whose result no algorithm changes measure; the rest: the model */
    MCA_COLL_HDRING_SELECT_MEASURED, /* every call measures */
};

/* coll_hdring_priority: read each time a communicator is created. */
extern int mca_coll_hdring_priority;

/* Registers every variable for `owner` (the component). */
int mca_coll_hdring_params_register(const mca_base_component_t *owner);
/* The parameters a new communicator works with (invalid ones replaced, with a report), and their generation:
 * equal generations, equal parameters. */
unsigned mca_coll_hdring_config_snapshot(mca_coll_hdring_config_t *cfg);
/* The network as measured (latency in us, bandwidths in MB/s, the same on every rank): from now on snapshots take
 * these for the model_network_* parameters left at their defaults (a value set anywhere wins). */
void mca_coll_hdring_params_measured(double latency_us, double bandwidth_mbs, double exchange_mbs);

/* The text of the file at `path`, read once per process (NULL, with *error the errno, when it cannot be read): the
 * same text for the check of the decisive parameters and for the decisions it holds. */
const char *mca_coll_hdring_params_file_text(const char *path, int *error);
/* At the component's close: the files' texts let go. */
void mca_coll_hdring_params_close(void);

/* Reports, once, the parameter values hdring could not read and the defaults it kept instead. An algorithm name
 * it does not know stops the job (true: the caller aborts it) unless coll_hdring_check_parameters is 0: a job that
 * asked for one algorithm must not run, and be timed, with another. */
bool mca_coll_hdring_report_bad_values(void);

/* The parameters the choice of algorithm (or where ranks sit) depends on, which every rank of a communicator
 * must share: how many, the i-th one's name (without coll_hdring_), its value in cfg as 64 bits (a text: a
 * hash of it), and that value as text. */
#define MCA_COLL_HDRING_MAX_DECISIVE 48
int mca_coll_hdring_decisive_count(void);
const char *mca_coll_hdring_decisive_name(int i);
uint64_t mca_coll_hdring_decisive_value(const mca_coll_hdring_config_t *cfg, int i);
void mca_coll_hdring_decisive_format(int i, uint64_t value, char *out, size_t len);

END_C_DECLS

#endif
