/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring: ring, recursive halving-doubling and binary-block collectives for Open MPI 4.1.
 *
 * Files: coll_hdring_component.c (registration, MCA parameters), coll_hdring_module.c (query, enable,
 * fallback), coll_hdring_decision.c (which algorithm, and why), coll_hdring_agreement.c (every rank decides
 * from the same parameters), coll_hdring_locality.c (where ranks sit), coll_hdring_transport.c (the kernels'
 * transport over the PML; coll_hdring_pml_exchange.h its exchanges, shared with coll_hdring_compiled.c, the
 * schedules compiled for it), coll_hdring_scratch.c (per-module scratch cache), coll_hdring_schedule.c
 * (running the chosen algorithm, or replaying its recorded schedule), coll_hdring_repeat.c (calls that repeat
 * the previous one), one file per collective, and the MPI-free layer hdring_*.[ch] (patterns, kernels,
 * algorithms, schedules).
 */
#ifndef MCA_COLL_HDRING_H
#define MCA_COLL_HDRING_H

#include "ompi_config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mpi.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/communicator/communicator.h"
#include "coll_hdring_ompi.h"

#include "hdring_algorithms.h"
#include "hdring_cost.h"
#include "hdring_defaults.h"
#include "hdring_plan.h"
#include "hdring_schedule.h"
#include "hdring_topo.h"

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

/* Index of the thresholds that apply: communicator size a power of two or not. */
enum { HDRING_POF2 = 0, HDRING_NPOF2 = 1 };

/* Everything a communicator's collectives depend on. The component holds the MCA variables; each module takes
 * a snapshot when its communicator is created, so values written through MPI_T apply to communicators created
 * afterwards (one program can compare configurations side by side). */
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
    size_t scratch_cache_bytes;
    int replay_calls; /* consecutive calls with the same arguments before the schedule is recorded; 0: never */
    size_t max_message_elements; /* longer messages go to the PML as one message of a derived datatype */
    size_t inline_pieces_bytes;  /* messages within a node of more than 256 B and at most this go as pieces */
    int check_parameters;        /* which new communicators check that their ranks share the decisive parameters */
} mca_coll_hdring_config_t;

typedef struct mca_coll_hdring_component_t {
    mca_coll_base_component_t super;
    int priority;
    int output; /* opal_output stream of the verbose trace */
    mca_coll_hdring_config_t config;
    /* What every communicator of the process shares, built once: plans (hdring_plan.h), and what the runtime
     * says of each process of the job, by its rank in the job, which it answers slowly (coll_hdring_locality.c) */
    opal_mutex_t lock; /* guards both: communicators may be created and first used on several threads */
    hdring_plan_cache_t plans;
    struct mca_coll_hdring_peer *peers;
    int npeers;
} mca_coll_hdring_component_t;

/* The one symbol the component exports: Open MPI finds the component by it (-fvisibility=hidden hides the rest). */
extern __attribute__((visibility("default"))) mca_coll_hdring_component_t mca_coll_hdring_component;

/* The lower-priority implementation of each collective hdring provides, kept for the cases it declines: the
 * fields of the communicator's table (mca_coll_base_comm_coll_t) with the same names. */
typedef struct mca_coll_hdring_fallback {
    mca_coll_base_module_allreduce_fn_t coll_allreduce;
    mca_coll_base_module_t *coll_allreduce_module;
    mca_coll_base_module_reduce_scatter_fn_t coll_reduce_scatter;
    mca_coll_base_module_t *coll_reduce_scatter_module;
    mca_coll_base_module_reduce_scatter_block_fn_t coll_reduce_scatter_block;
    mca_coll_base_module_t *coll_reduce_scatter_block_module;
    mca_coll_base_module_allgather_fn_t coll_allgather;
    mca_coll_base_module_t *coll_allgather_module;
    mca_coll_base_module_bcast_fn_t coll_bcast;
    mca_coll_base_module_t *coll_bcast_module;
} mca_coll_hdring_fallback_t;

/* Scratch memory kept by a module between calls, up to config.scratch_cache_bytes. It starts as the module's
 * own few bytes, so that a small call on a new communicator allocates nothing. */
#define MCA_COLL_HDRING_INLINE_SCRATCH_BYTES 512
typedef struct mca_coll_hdring_scratch_cache {
    void *mem; /* first, or allocated once a call needed more */
    size_t bytes;
    union {
        max_align_t align;
        char bytes[MCA_COLL_HDRING_INLINE_SCRATCH_BYTES];
    } first;
} mca_coll_hdring_scratch_cache_t;

/* Memory for the tables and message lists of a call (hdring_take), kept by a module between calls. A call takes
 * it in order from the cache; what does not fit is allocated for the call (`spill`), and when the call ends the
 * cache grows to all the call took, so the next such call allocates nothing. */
typedef struct mca_coll_hdring_tables {
    char *mem;
    size_t bytes;
    size_t used; /* taken by the current call (may exceed bytes) */
    void *spill; /* allocations beyond the cache, chained through their first word */
} mca_coll_hdring_tables_t;

typedef enum mca_coll_hdring_why {
    MCA_COLL_HDRING_WHY_FORCED,    /* coll_hdring_<coll>_algorithm */
    MCA_COLL_HDRING_WHY_UNORDERED, /* fallback: the forced algorithm cannot keep a non-commutative op's order */
    MCA_COLL_HDRING_WHY_UNEVEN,    /* forced hierarchical on nodes of unequal size: its flat algorithm instead */
    MCA_COLL_HDRING_WHY_PLAN,      /* auto: the plan's segment (its own reason: threshold or model) */
} mca_coll_hdring_why_t;

typedef struct mca_coll_hdring_choice {
    bool fallback;    /* delegate to the saved lower-priority module */
    hdring_alg_t alg; /* otherwise run this */
    hdring_alg_t phase[HDRING_NPHASES]; /* a hierarchical algorithm's phases */
    hdring_alg_t forced; /* with MCA_COLL_HDRING_WHY_UNEVEN: the forced algorithm */
    mca_coll_hdring_why_t why;
    hdring_why_t plan_why; /* with MCA_COLL_HDRING_WHY_PLAN */
    size_t lo, hi;         /* the size range (or threshold) behind the choice, for the trace */
    size_t segment;        /* pipelined (the algorithm or a phase): bytes per segment; 0 otherwise */
} mca_coll_hdring_choice_t;

/* The automatic choice for one collective on one communicator (hdring_plan.h), built on first use, and the
 * last call's whole choice: a call of the same size as the one before (the common case) reuses it instead of
 * walking the plan and asking the model for a segment size again. */
typedef struct mca_coll_hdring_plan {
    bool built;
    hdring_plan_t plan;
    bool has_last;
    size_t last_bytes;
    mca_coll_hdring_choice_t last;
} mca_coll_hdring_plan_t;

/* ---- the transport's types (its functions: below, and coll_hdring_transport.c) ---- */

/* One PML message: n elements of *type at addr, given to the PML as one message or as `pieces` messages of
 * bytes (mca_coll_hdring_pml_cut). */
typedef struct mca_coll_hdring_pml_msg {
    char *addr;
    int n;
    struct ompi_datatype_t *type;
    bool derived; /* type was made for this message: destroyed once the PML is done */
    int pieces;   /* 1: (addr, n, type) is the PML's message; more: bytes [0, bytes) of flat, in that many */
    bool inline_size; /* at most HDRING_PML_INLINE_BYTES by the call's description: a send completes at once */
    int bytes;    /* the pieces' bytes in all: 0 when the call is poisoned (empty pieces) */
    char *flat;   /* where those bytes are: at addr, or a packed copy of (addr, n, type) */
    bool packed;  /* flat is a copy: a receive unpacks it into (addr, n, type) once all its pieces are in */
} mca_coll_hdring_pml_msg_t;

typedef struct mca_coll_hdring_pml {
    struct ompi_communicator_t *comm;
    struct ompi_datatype_t *dtype;
    struct ompi_op_t *op; /* NULL for collectives without reduction */
    int tag;
    const int *rank_of;   /* algorithm rank -> communicator rank (the locality order); NULL: the same */
    ptrdiff_t extent;
    char *base[HDRING_NBUFS]; /* address of element 0 of each buffer */
    void *own_scratch;        /* scratch allocated for this call only (too large to cache) */
    mca_coll_hdring_tables_t *tables; /* the module's, for hdring_take */
    size_t max_message;       /* elements per PML message before a derived datatype carries it */
    size_t dtype_size;        /* bytes of data in one element */
    size_t inline_pieces_bytes; /* config.inline_pieces_bytes; 0: no message goes in pieces */
    const int *node_of;       /* communicator rank -> node (hdring_topo_t); NULL: all on this rank's node */
    int node;                 /* this rank's */
    struct {                  /* where sends of exactly one OUT range may read the same bytes instead */
        size_t off, count;    /* the range of OUT, in elements */
        const void *buf;      /* NULL: no alternative source */
        int n;
        struct ompi_datatype_t *type;
        bool unfilled;        /* the range does not hold them yet (mca_coll_hdring_pml_contribute) */
        int fill_status;      /* that copy's Open MPI status */
    } same_bytes;
    int error;                /* Open MPI error behind HDRING_ERR_TRANSPORT, or the reason it is poisoned */
    bool poisoned;            /* the call failed somewhere: empty messages, no local work (pml_poison) */
    struct {                  /* messages started and not yet waited for (hdring_isend, hdring_irecv) */
        uint32_t used;        /* bit i: slot i holds one */
        uint32_t receives;    /* bit i: it is a receive */
        struct ompi_request_t *req[HDRING_MAX_INFLIGHT][HDRING_MAX_PIECES]; /* one per piece */
        mca_coll_hdring_pml_msg_t msg[HDRING_MAX_INFLIGHT];
    } inflight;
    hdring_xport_t xport;
} mca_coll_hdring_pml_t;

/* A schedule compiled for the PML transport (mca_coll_hdring_pml_compile): each of its messages' communicator
 * rank, offset from its buffer's element 0 and count, worked out once, and for each step whether it is an
 * exchange that goes straight to the PML with them; any other step replays through the transport. */
typedef struct mca_coll_hdring_pml_planned {
    int peer;           /* communicator rank */
    hdring_buf_t buf;
    ptrdiff_t at;       /* bytes */
    int n;              /* elements of the call's datatype */
    bool same_bytes;    /* a send that reads the call's same_bytes instead */
} mca_coll_hdring_pml_planned_t;

typedef struct mca_coll_hdring_pml_program {
    bool fill_in_flight;                 /* the same_bytes range may be filled while the first exchange runs:
                                            that exchange, direct, neither receives into it nor sends from it */
    bool pair;                           /* the schedule is one direct exchange of at most one message each way,
                                            none in pieces: every collective at 2 ranks, a bcast's leaf */
    bool *direct;                        /* per step of the schedule */
    mca_coll_hdring_pml_planned_t *msgs; /* per message of the schedule */
    size_t steps_cap, msgs_cap;
} mca_coll_hdring_pml_program_t;

/* What a call of a collective depends on, its buffers aside: calls of one collective on one communicator with
 * equal keys choose the same algorithm, set up the same transport and send the same messages. `in` and `out`
 * are the call's buffers (not compared): the memory its IN and OUT start from. */
typedef struct mca_coll_hdring_key {
    size_t count[2];                       /* allgather: send, receive; the others: [0] */
    struct ompi_datatype_t *dtype[2];      /* likewise */
    struct ompi_op_t *op;                  /* NULL without reduction */
    int root;                              /* bcast */
    const int *counts;                     /* reduce_scatter: each block's count (their sum in count[0]) */
    int ncounts;                           /* how many; 0 without */
    const void *in, *out;
    bool in_place; /* last, away from root and ncounts: compared with them as one word, it was read in one load
                      from the several stores that built the key, which the CPU cannot forward (a stall of 2% of
                      a 4-byte allgather at 2 ranks) */
} mca_coll_hdring_key_t;

/* The key of a reduction of `count` elements per rank or block (allreduce, reduce_scatter_block; reduce_scatter's
 * adds its counts). */
static inline mca_coll_hdring_key_t mca_coll_hdring_reduction_key(size_t count, struct ompi_datatype_t *dtype,
                                                                  struct ompi_op_t *op, const void *sbuf,
                                                                  void *rbuf)
{
    const mca_coll_hdring_key_t key = {
        .count = {count, 0},
        .dtype = {dtype, NULL},
        .op = op,
        .in_place = MPI_IN_PLACE == sbuf,
        .in = MPI_IN_PLACE == sbuf ? rbuf : sbuf,
        .out = rbuf,
    };
    return key;
}

/* A collective's previous call, kept so that a call that repeats it goes straight to its recorded schedule
 * (coll_hdring_repeat.c). */
typedef struct mca_coll_hdring_repeat {
    bool armed;                  /* the previous call replayed its schedule, and t can serve the next */
    mca_coll_hdring_key_t key;   /* its key; datatypes and op retained while armed */
    ptrdiff_t shift[2];          /* IN and OUT: t's base minus the call's buffer */
    bool scratch;                /* TMP and WORK in the module's scratch, at these offsets */
    ptrdiff_t scratch_at[2];
    mca_coll_hdring_pml_t *t;    /* its transport, buffers aside: allocated when first kept (4 KB, which a
                                    communicator that never repeats a call should not carry) */
    bool compiled;               /* its schedule compiled for t into program; otherwise replayed as it is */
    mca_coll_hdring_pml_program_t program;
    int *counts;                 /* a copy of the key's counts (key.counts points here while armed) */
    size_t counts_cap;
} mca_coll_hdring_repeat_t;

/* What a module keeps for its calls, 9 KB. A chunk that large costs glibc about 1.7 k instructions to allocate and
 * free (it sorts its bins for it), which a communicator used once (a duplicate, a call, freed) should not pay, so
 * a module takes its state from the component's spares and gives it back there (coll_hdring_module.c), with
 * what the next communicator of the same placement can use: its plans, schedules and parked kept calls. */
typedef struct mca_coll_hdring_state {
    mca_coll_hdring_config_t config;
    unsigned generation; /* config's (mca_coll_hdring_config_snapshot) */
    mca_coll_hdring_scratch_cache_t scratch;
    mca_coll_hdring_tables_t tables;
    mca_coll_hdring_plan_t plan[MCA_COLL_HDRING_NCOLLS][2]; /* [coll][operand order must be kept] */
    struct {              /* the communicator the plans, schedules and kept calls were made for: the next */
        bool valid;       /* one to take the state keeps what it can use (coll_hdring_module.c) */
        int p, rank;
        unsigned generation;
        hdring_shape_t shape;
        bool trivial;     /* one node, ranks in rank order: schedules and kept calls hold no table of it */
    } planned;
    unsigned parked; /* bit c: collective c's kept call was armed when its communicator went (datatypes released) */
    unsigned ran; /* bit c: collective c has run (mca_coll_hdring_run); its schedule and kept call are set up */
    hdring_schedule_t schedule[MCA_COLL_HDRING_NCOLLS];     /* each collective's last call, recorded */
    mca_coll_hdring_repeat_t repeat[MCA_COLL_HDRING_NCOLLS];
} mca_coll_hdring_state_t;

/* Small enough for glibc's per-thread cache of chunks (at most 1032 bytes): allocated and freed in a few dozen
 * instructions. */
typedef struct mca_coll_hdring_module_t {
    mca_coll_base_module_t super;
    hdring_topo_t topo; /* where its ranks sit (coll_hdring_locality.c) */
    mca_coll_hdring_fallback_t fallback;
    bool fallback_retained;
    mca_coll_hdring_state_t *state;
} mca_coll_hdring_module_t;

OBJ_CLASS_DECLARATION(mca_coll_hdring_module_t);

/* ---- component / module ---- */
int mca_coll_hdring_init_query(bool enable_progress_threads, bool enable_mpi_threads);
mca_coll_base_module_t *mca_coll_hdring_comm_query(struct ompi_communicator_t *comm, int *priority);
/* At the component's close: the states kept for new communicators (coll_hdring_module.c). */
void mca_coll_hdring_free_spare_states(void);
/* A message of help-coll-hdring.txt for the user, once per job: printed by the job's first process straight
 * to stderr (Open MPI 4.1.4's relay of opal_show_help messages to mpirun was seen to drop them when several
 * processes send at once, as at MPI_Init). MCA parameters are the same on every process, so the first one
 * speaks for all. */
void mca_coll_hdring_report(const char *topic, ...);
/* FNV-1a of n bytes, continuing from h (start from MCA_COLL_HDRING_HASH_SEED): labels and digests that ranks
 * compare, never stored. */
#define MCA_COLL_HDRING_HASH_SEED 1469598103934665603ULL
static inline uint64_t mca_coll_hdring_hash(uint64_t h, const void *data, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        h = (h ^ ((const unsigned char *) data)[i]) * 1099511628211ULL;
    }
    return h;
}
/* Appends printf-style text to buf (of `size` bytes, NUL-terminated), truncating if it must. */
void mca_coll_hdring_append(char *buf, size_t size, const char *fmt, ...) __opal_attribute_format__(__printf__, 3, 4);
/* The same message, from whichever process calls it. */
void mca_coll_hdring_report_here(const char *topic, ...);
/* Reports, once, the parameter values hdring could not read and the defaults it kept instead. */
void mca_coll_hdring_report_bad_values(void);
/* The parameters a new communicator works with (invalid ones replaced, with a report), and their generation:
 * equal generations, equal parameters. */
unsigned mca_coll_hdring_config_snapshot(mca_coll_hdring_config_t *cfg);
/* The core collective serving an MPI collective; the MPI collective's name (as in the MCA parameters). */
hdring_coll_t mca_coll_hdring_core_coll(mca_coll_hdring_coll_t coll);
const char *mca_coll_hdring_coll_name(mca_coll_hdring_coll_t coll);
int mca_coll_hdring_coll_tag(mca_coll_hdring_coll_t coll); /* its messages' tag (coll_tags.h) */

/* The parameters the choice of algorithm (or where ranks sit) depends on, which every rank of a communicator
 * must share: how many, the i-th one's name (without coll_hdring_), its value in cfg as 64 bits (a text: a
 * hash of it), and that value as text. */
#define MCA_COLL_HDRING_MAX_DECISIVE 48
int mca_coll_hdring_decisive_count(void);
const char *mca_coll_hdring_decisive_name(int i);
uint64_t mca_coll_hdring_decisive_value(const mca_coll_hdring_config_t *cfg, int i);
void mca_coll_hdring_decisive_format(int i, uint64_t value, char *out, size_t len);

/* Whether comm is on MPI_COMM_WORLD's group (MPI_COMM_WORLD and its dups): this job's processes in world order,
 * without looking at any of them. */
static inline bool mca_coll_hdring_on_world_group(const struct ompi_communicator_t *comm)
{
    return comm->c_local_group == ompi_mpi_comm_world.comm.c_local_group;
}

/* ---- agreement ---- */
/* Whether every rank of the new communicator has the same decisive parameters (one exchange, for the
 * communicators config.check_parameters selects). OMPI_ERR_NOT_SUPPORTED when they differ, said by rank 0
 * of the communicator: hdring then declines it. */
int mca_coll_hdring_agreement(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm);

/* ---- locality ---- */
/* Builds m->topo for the communicator (may exchange one value per rank over the PML). */
int mca_coll_hdring_locality(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm);
/* Frees the placement kept for the next communicator of the same processes (at component close). */
void mca_coll_hdring_locality_forget(void);
/* Tells the other processes, through the runtime, which machine this process runs on and its cores (at
 * component open, before MPI_Init's exchange; nothing outside MPI_Init, as in ompi_info). */
void mca_coll_hdring_machine_publish(void);
/* An allgather of n int64 values per rank, in rank order, for hdring's own bookkeeping at creation: a fixed
 * algorithm (rhd) over the PML, whatever the parameters say, so ranks whose parameters differ still match. */
int mca_coll_hdring_gather_values(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm, const int64_t *mine,
                                  int n, int64_t *all);

/* ---- decision ---- */
/* What the caller knows about the call. */
typedef struct mca_coll_hdring_call {
    mca_coll_hdring_coll_t coll;
    int comm_size;
    size_t bytes;          /* the whole vector: see README, "what bytes= means" */
    bool ordered;          /* the operation is not commutative: operand order must be kept */
} mca_coll_hdring_call_t;

/* Choose, and trace the choice: at coll_hdring_verbose >= 1 rank 0 of the communicator prints one line. */
void mca_coll_hdring_decide(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm,
                            const mca_coll_hdring_call_t *call, mca_coll_hdring_choice_t *choice);

/* The arguments of a chosen algorithm: its phases, its segment (in elements of elem_size bytes: a bcast's
 * pipelined algorithms run on the message's bytes, a ring on the datatype's elements), where the ranks sit (nodes,
 * near_first), and, for calls in locality order (every call but a reduction that keeps operand order), rank b's
 * block and the bcast root in that order. `blocks` receives the block description args points to. */
void mca_coll_hdring_args(const mca_coll_hdring_module_t *m, const mca_coll_hdring_choice_t *choice,
                          const hdring_partition_t *parts, bool ordered, size_t elem_size, hdring_blocks_t *blocks,
                          hdring_args_t *args); /* args->count set by the caller, args->root a communicator rank */
/* Whether a call runs in the communicator's locality order (transport and arguments). */
static inline bool mca_coll_hdring_in_locality_order(bool ordered) { return !ordered; }

/* ---- transport over the PML ---- */

/* The largest message collective coll's transport cuts in pieces of HDRING_PML_INLINE_BYTES between ranks of one
 * node (mca_coll_hdring_pml_cut), 0 for none: up to config.inline_pieces_bytes where a node holds more ranks than
 * cores (hdring_cost_pieces_bytes says where and how far). There Open MPI makes a waiting process yield its core,
 * so a send request that is not complete at once costs a turn of the scheduler, which inline sends avoid; with a
 * core per rank the pieces' extra messages cost more than the request they save (README.md, Tuning). From m's
 * topology: the same on every rank. */
static inline size_t mca_coll_hdring_pieces_bytes(const mca_coll_hdring_module_t *m, mca_coll_hdring_coll_t coll)
{
    return NULL == m->topo.node_of ? 0
                                   : hdring_cost_pieces_bytes(&m->topo.shape, mca_coll_hdring_core_coll(coll),
                                                              m->state->config.inline_pieces_bytes);
}

/* For a call of collective coll (its tag, and how far its messages go in pieces); locality_order: algorithm ranks
 * are positions in the communicator's locality order (hdring_topo.h). */
void mca_coll_hdring_pml_init(mca_coll_hdring_pml_t *t, mca_coll_hdring_module_t *m,
                              struct ompi_communicator_t *comm, mca_coll_hdring_coll_t coll,
                              struct ompi_datatype_t *dtype, struct ompi_op_t *op, bool locality_order);
/* Elements [off, off + count) of OUT are (n, type) at buf: allgather's own contribution in the send buffer.
 * Sends of exactly that range read buf instead, so the peer reads memory this rank has not just written (at 2
 * ranks on shared memory, sending the freshly written OUT block measured 15% slower for 64 KiB to 4 MiB). The
 * bytes are copied into OUT now, or with in_flight by the first exchange, after it posts its messages and before
 * it waits for them (by the end of the first step at the latest), so the copy overlaps their flight: only where
 * the compiled schedule allows it (mca_coll_hdring_pml_program_t.fill_in_flight). OUT's base must be set. The
 * copy's Open MPI status; in flight OMPI_SUCCESS, the copy's own kept in same_bytes.fill_status. */
int mca_coll_hdring_pml_contribute(mca_coll_hdring_pml_t *t, size_t off, size_t count, const void *buf, int n,
                                   struct ompi_datatype_t *type, bool in_flight);
/* Runs the rest of the call poisoned: every message it sends or receives is empty (no buffer is touched) and
 * reductions and copies do nothing, so the peers still find each message of the schedule and no rank waits
 * forever. A rank that receives an empty message where it expects data is poisoned by it (OMPI_ERROR) and
 * passes the poison on. For a rank that fails before its data exist where every other rank's data come from
 * it: a bcast root that cannot pack the message. */
void mca_coll_hdring_pml_poison(mca_coll_hdring_pml_t *t, int ompi_error);
/* Open MPI error code for a kernel's return value; a poisoned call's reason whatever the kernel returned. */
int mca_coll_hdring_pml_error(const mca_coll_hdring_pml_t *t, int rc);
/* Withdraws the messages a failed kernel left in flight: receives cancelled, sends completed (scratch_release). */
void mca_coll_hdring_pml_withdraw(mca_coll_hdring_pml_t *t);
/* Compiles s for t into *program (grown as needed); false when there is no memory for it. */
bool mca_coll_hdring_pml_compile(const mca_coll_hdring_pml_t *t, const hdring_schedule_t *s,
                                 mca_coll_hdring_pml_program_t *program);
void mca_coll_hdring_pml_program_free(mca_coll_hdring_pml_program_t *program);
/* Replays s on t as compiled: what hdring_schedule_replay(&t->xport, s) returns, with the same messages, in the
 * same order. A call poisoned on the way replays its remaining steps through the transport (empty messages). */
int mca_coll_hdring_pml_replay(mca_coll_hdring_pml_t *t, const hdring_schedule_t *s,
                               const mca_coll_hdring_pml_program_t *program);

/* ---- running ---- */
/* Runs the chosen algorithm on t (coll_hdring_schedule.c): by replaying the module's recorded schedule of this
 * collective when the call repeats the arguments of the calls before it (hdring_schedule.h), directly otherwise.
 * At coll_hdring_verbose >= 2 rank 0 says which. key: the call's (mca_coll_hdring_repeat_find), with which a
 * call that replayed arms the repeat path for the next; NULL for calls the repeat path cannot serve (a bcast
 * that packs around the run). An hdring_ status. */
int mca_coll_hdring_run(mca_coll_hdring_module_t *m, mca_coll_hdring_pml_t *t, mca_coll_hdring_coll_t coll,
                        hdring_alg_t alg, const hdring_args_t *args, const mca_coll_hdring_key_t *key);

/* ---- repeated calls (coll_hdring_repeat.c) ----
 * A call whose key equals the collective's previous call's, when that call replayed its recorded schedule,
 * takes the repeat path: no decision, no arguments, no schedule key, only the replay on the new buffers with the
 * previous call's transport. Not at coll_hdring_verbose 1 and 2, whose trace reports every call's decision; at 3
 * rank 0 says when a call took it. */
/* An address by integer arithmetic: a buffer may be NULL (no data, or a buffer the collective does not use). */
static inline char *mca_coll_hdring_shifted(const void *at, ptrdiff_t by)
{
    return (char *) ((uintptr_t) at + (uintptr_t) by);
}
/* The transport for this call with its buffers set (the caller adds what else its full path sets per call,
 * such as allgather's same_bytes), or NULL: take the full path. Inline: every call asks. */
static inline mca_coll_hdring_pml_t *mca_coll_hdring_repeat_find(mca_coll_hdring_module_t *m,
                                                                 mca_coll_hdring_coll_t coll,
                                                                 const mca_coll_hdring_key_t *key)
{
    mca_coll_hdring_repeat_t *r = &m->state->repeat[coll];
    const mca_coll_hdring_key_t *k = &r->key;
    if (!r->armed || k->count[0] != key->count[0] || k->count[1] != key->count[1] || k->dtype[0] != key->dtype[0]
        || k->dtype[1] != key->dtype[1] || k->op != key->op || k->root != key->root || k->in_place != key->in_place
        || k->ncounts != key->ncounts
        || (0 != key->ncounts && 0 != memcmp(k->counts, key->counts, (size_t) key->ncounts * sizeof(int)))) {
        return NULL;
    }
    mca_coll_hdring_pml_t *t = r->t;
    t->base[HDRING_BUF_IN] = mca_coll_hdring_shifted(key->in, r->shift[0]);
    t->base[HDRING_BUF_OUT] = mca_coll_hdring_shifted(key->out, r->shift[1]);
    if (r->scratch) { /* the module's scratch may have grown, and moved, since */
        t->base[HDRING_BUF_TMP] = mca_coll_hdring_shifted(m->state->scratch.mem, r->scratch_at[0]);
        t->base[HDRING_BUF_WORK] = mca_coll_hdring_shifted(m->state->scratch.mem, r->scratch_at[1]);
    }
    return t;
}
/* Whether the collective's kept call lets the first exchange fill the same_bytes range
 * (mca_coll_hdring_pml_contribute). */
static inline bool mca_coll_hdring_repeat_fills_in_flight(const mca_coll_hdring_module_t *m,
                                                          mca_coll_hdring_coll_t coll)
{
    return m->state->repeat[coll].compiled && m->state->repeat[coll].program.fill_in_flight;
}
/* Replays the collective's schedule on t (from repeat_find) and ends the call: an Open MPI error code. */
int mca_coll_hdring_repeat_run(mca_coll_hdring_module_t *m, mca_coll_hdring_coll_t coll, mca_coll_hdring_pml_t *t);
/* mca_coll_hdring_run's ends: forget the previous call (the schedule is about to change), and keep this one
 * when it replayed its schedule and succeeded. */
void mca_coll_hdring_repeat_disarm(mca_coll_hdring_module_t *m, mca_coll_hdring_coll_t coll);
void mca_coll_hdring_repeat_arm(mca_coll_hdring_module_t *m, mca_coll_hdring_coll_t coll,
                                const mca_coll_hdring_key_t *key, const mca_coll_hdring_pml_t *t, int rc);
/* When the collective first runs on a state (its kept call unarmed), and when the state forgets it. */
void mca_coll_hdring_repeat_init(mca_coll_hdring_module_t *m, mca_coll_hdring_coll_t coll);
void mca_coll_hdring_repeat_free(mca_coll_hdring_state_t *s, mca_coll_hdring_coll_t coll);
/* When the module goes: disarms the kept call, releasing its datatypes and op; whether it was armed with
 * predefined ones only, which no program can free, so that the next communicator may re-arm it. */
bool mca_coll_hdring_repeat_park(mca_coll_hdring_state_t *s, mca_coll_hdring_coll_t coll);
/* Re-arms a parked call for m's communicator (the one it was made for has the same placement). */
void mca_coll_hdring_repeat_adopt(mca_coll_hdring_module_t *m, mca_coll_hdring_coll_t coll,
                                  struct ompi_communicator_t *comm);

/* ---- scratch ---- */
/* Sets t->base[TMP] and t->base[WORK] for `need` elements of t->dtype. */
int mca_coll_hdring_scratch_acquire(mca_coll_hdring_module_t *m, mca_coll_hdring_pml_t *t, hdring_scratch_t need);
/* Tables for the call (the transport's take): NULL if out of memory. */
void *mca_coll_hdring_tables_take(mca_coll_hdring_pml_t *t, size_t bytes);
/* The end of every call that initialised t: withdraws what a failed kernel left in flight, frees its own
 * scratch, returns its tables to the module's cache. Most calls have none of these: the test is inline. */
void mca_coll_hdring_scratch_settle(mca_coll_hdring_pml_t *t);
static inline void mca_coll_hdring_scratch_release(mca_coll_hdring_pml_t *t)
{
    if (0 != t->inflight.used || NULL != t->own_scratch || 0 != t->tables->used) {
        mca_coll_hdring_scratch_settle(t);
    }
}
/* When the module goes. */
void mca_coll_hdring_scratch_free(mca_coll_hdring_module_t *m);
/* Room in *array (of *cap items of `item` bytes) for n, grown to exactly n when short: what a module keeps
 * between calls (a kept call's compiled schedule and counts). false when there is no memory for it. */
bool mca_coll_hdring_room(void **array, size_t *cap, size_t n, size_t item);

/* ---- collectives ---- */
int mca_coll_hdring_allreduce(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                              struct ompi_op_t *op, struct ompi_communicator_t *comm,
                              mca_coll_base_module_t *module);
int mca_coll_hdring_reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                                   struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                   struct ompi_communicator_t *comm, mca_coll_base_module_t *module);
int mca_coll_hdring_reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, struct ompi_datatype_t *dtype,
                                         struct ompi_op_t *op, struct ompi_communicator_t *comm,
                                         mca_coll_base_module_t *module);
int mca_coll_hdring_allgather(const void *sbuf, int scount, struct ompi_datatype_t *sdtype, void *rbuf,
                              int rcount, struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                              mca_coll_base_module_t *module);
int mca_coll_hdring_bcast(void *buf, int count, struct ompi_datatype_t *dtype, int root,
                          struct ompi_communicator_t *comm, mca_coll_base_module_t *module);

END_C_DECLS

#endif
