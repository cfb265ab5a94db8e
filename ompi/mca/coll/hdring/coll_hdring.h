/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring: ring, recursive halving-doubling, binary-block, Bruck, tree and pipelined collectives for Open MPI
 * 4.1 and 5.0, blocking, nonblocking and persistent. This header holds the types the component's parts share,
 * and no functions; each part declares its own in its header.
 *
 * The parts, from the bottom up (each uses only those below it):
 *   coll_hdring_ompi.h      the Open MPI series and what differs between them
 *   coll_hdring_util        messages to the user, the trace stream, the process's lock
 *   coll_hdring_params      the MPI collectives and the MCA parameters
 *   coll_hdring_memory      scratch and table memory of a call
 *   coll_hdring_pml_msg     messages as the PML takes them (pieces, derived datatypes, packing) and their exchange
 *   coll_hdring_pml         the transport the core's schedules run on, over the PML; local reductions and copies
 *   coll_hdring_cache       the tasks a setup's calls built: the one cache of calls
 *   coll_hdring_bootstrap   the one exchange hdring makes while a communicator is being created
 *   coll_hdring_network     the network measured once per job by node leaders, agreed by every rank
 *   coll_hdring_setup       where a communicator's ranks sit, shared by communicators placed alike
 *   coll_hdring_agreement   every rank of a new communicator decides from the same parameters
 *   coll_hdring_decision    which algorithm serves a call, and why
 *   coll_hdring_task        a call's decision and recorded schedule, built once and cached in its setup
 *   coll_hdring_run         one call's task on its buffers, blocking or a step at a time
 *   coll_hdring_request     nonblocking and persistent calls: requests that Open MPI's progress engine advances
 *   coll_hdring_call        every collective of every kind: key, task, then a run or the fallback
 *   coll_hdring_tolerant    an allreduce that survives a lost rank (ULFM): the call, an agreement, the survivors
 *   coll_hdring_colls       the MPI functions' arguments turned into calls
 *   coll_hdring_module      a communicator's module: query, enable (the fallback kept), disable
 *   coll_hdring_component   the component: registration, open, close
 * and the MPI-free core, hdring_*.[ch] (patterns, kernels, algorithms, the cost model, schedules and their runs).
 */
#ifndef MCA_COLL_HDRING_H
#define MCA_COLL_HDRING_H

#include "coll_hdring_ompi.h"

#include <stddef.h>
#include <stdint.h>

#include "mpi.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mca/coll/coll.h"

#include "coll_hdring_params.h"
#include "hdring_algorithms.h"
#include "hdring_defaults.h"
#include "hdring_plan.h"
#include "hdring_schedule.h"
#include "hdring_topo.h"

BEGIN_C_DECLS

/* ---- where a communicator's ranks sit, and the parameters in force: its setup ---- */

/* A task of the setup's cache (below). */
struct mca_coll_hdring_task;

/* What every call on a communicator is decided and scheduled from: its size, this process's rank, where its
 * ranks sit and the parameters it was created with. Communicators with equal setups (duplicates, most often) share
 * one, and with it the plans and the tasks their calls build (coll_hdring_setup.c). */
typedef struct mca_coll_hdring_setup {
    struct mca_coll_hdring_setup *next; /* in the process's list of setups */
    int refs;                           /* modules using it; with the lock */
    struct ompi_group_t *group;         /* the group it was placed for without an exchange (retained), or NULL */
    unsigned generation;                /* of config (mca_coll_hdring_config_snapshot) */
    int p, rank;
    mca_coll_hdring_config_t config;
    hdring_topo_t topo;
    int source;                          /* what named the nodes (the trace) */
    size_t pieces_bytes[MCA_COLL_HDRING_NCOLLS]; /* messages within a node cut in pieces up to this (pml) */
    /* built on first use, with the lock: */
    bool planned[MCA_COLL_HDRING_NCOLLS][2]; /* [coll][operand order kept] */
    hdring_plan_t plan[MCA_COLL_HDRING_NCOLLS][2];
    struct mca_coll_hdring_task *newest, *oldest; /* the task cache, most recently used first */
    int ntasks;
    size_t task_bytes;
} mca_coll_hdring_setup_t;

/* ---- a call ---- */

/* The kinds of a collective call. */
typedef enum mca_coll_hdring_kind {
    MCA_COLL_HDRING_BLOCKING,
    MCA_COLL_HDRING_NONBLOCKING,
    MCA_COLL_HDRING_PERSISTENT,
    MCA_COLL_HDRING_NKINDS
} mca_coll_hdring_kind_t;

/* A call, as the MPI function gave it (coll_hdring_colls.c): the buffers and what their elements are. */
typedef struct mca_coll_hdring_args {
    mca_coll_hdring_coll_t coll;
    int scount;                    /* allgather: the send count (and sdtype the send type) */
    const void *sbuf; /* MPI_IN_PLACE allowed */
    void *rbuf;       /* bcast: the buffer */
    size_t count;     /* allreduce, bcast: elements; reduce_scatter_block, allgather: per block (allgather: receive) */
    const int *rcounts; /* reduce_scatter: each block's */
    struct ompi_datatype_t *dtype; /* the elements' (allgather: the receive type) */
    struct ompi_datatype_t *sdtype;
    struct ompi_op_t *op;          /* NULL without reduction */
    struct ompi_info_t *info;      /* persistent */
    int root;                      /* bcast */
} mca_coll_hdring_args_t;

/* What a call's task depends on, its buffers aside: calls of one setup with equal keys choose the same algorithm
 * and run the same schedule. The datatype enters by its size and extent only: a schedule names elements, and the
 * call brings its own datatype and op to the transport. */
typedef struct mca_coll_hdring_key {
    mca_coll_hdring_coll_t coll;
    unsigned flags;        /* MCA_COLL_HDRING_KEY_* */
    int root;              /* bcast */
    size_t count;          /* allreduce, bcast: elements; reduce_scatter: all blocks'; the others: per block */
    size_t size;           /* of the elements' datatype */
    ptrdiff_t extent;
    const int *rcounts;    /* reduce_scatter: each block's count */
    int nrcounts;          /* how many: p for reduce_scatter, 0 otherwise */
    uint64_t rcounts_hash;
} mca_coll_hdring_key_t;

enum {
    MCA_COLL_HDRING_KEY_ORDERED = 1,    /* the op is not commutative: operand order kept */
    MCA_COLL_HDRING_KEY_IN_PLACE = 2,   /* MPI_IN_PLACE */
    MCA_COLL_HDRING_KEY_CONTIGUOUS = 4, /* bcast: the message's bytes lie in one run */
};

/* A call's task: its decision and, unless it falls back, its schedule, recorded once (coll_hdring_task.c). Shared
 * by every call with its key on its setup, of every kind, and immutable once built: referenced while a call or
 * the cache holds it. */
typedef struct mca_coll_hdring_task {
    struct mca_coll_hdring_task *newer, *older; /* in the setup's cache */
    int refs;                                    /* atomic */
    mca_coll_hdring_key_t key;                   /* key.rcounts points into the task */
    size_t bytes;                                /* of the whole vector (the decision's size) */
    bool fallback;                               /* the call goes to the next component */
    hdring_alg_t alg;
    bool on_bytes;       /* bcast cut into pieces: runs on the message's bytes (MPI_BYTE), packed if not contiguous */
    bool locality_order; /* algorithm ranks are the setup's locality order */
    bool fills_in_flight; /* allgather: this rank's block may be copied in while the first exchange runs */
    hdring_scratch_t scratch; /* TMP and WORK, in elements of the run's datatype */
    hdring_args_t args;       /* for a run of the algorithm itself (a schedule too long to record, or its
                                 recording short of memory) */
    hdring_blocks_t blocks;
    hdring_partition_t parts;
    size_t *displ;
    bool recorded;            /* sched holds its schedule */
    hdring_schedule_t sched;
    char trace[448];          /* "alg=ring (forced by ...)": what the trace says of the decision */
} mca_coll_hdring_task_t;

/* ---- the transport over the PML ---- */

/* Memory for a call's tables and message lists (hdring_take): taken in order from a block kept between calls;
 * what does not fit is allocated for the call (`spill`), and when the call ends the block grows to all it took,
 * so the next such call allocates nothing (coll_hdring_memory.c). */
typedef struct mca_coll_hdring_tables {
    char *mem;
    size_t bytes;
    size_t used; /* taken by the current call (may exceed bytes) */
    void *spill; /* allocations beyond the block, chained through their first word */
} mca_coll_hdring_tables_t;

/* One PML message: n elements of *type at addr, given to the PML as one message or as `pieces` messages of
 * bytes (coll_hdring_pml.c). */
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

/* One message of an exchange as the PML takes it: its description and the communicator rank at the other end. */
typedef struct mca_coll_hdring_pml_side {
    mca_coll_hdring_pml_msg_t m;
    int peer;
} mca_coll_hdring_pml_side_t;

/* A nonblocking exchange in flight (post_exchange): its messages and their requests, in memory the run owns. */
typedef struct mca_coll_hdring_pml_posted {
    int n, nrecvs;                          /* sides: receives first */
    int nreqs;
    mca_coll_hdring_pml_side_t *sides;      /* room for `room` sides and requests */
    struct ompi_request_t **reqs;
    int room_sides, room_reqs;
} mca_coll_hdring_pml_posted_t;

/* The transport of one run of a schedule or algorithm on one communicator: the hdring_transport.h operations over
 * the PML (coll_hdring_pml.c). */
typedef struct mca_coll_hdring_pml {
    struct ompi_communicator_t *comm;
    struct ompi_datatype_t *dtype;
    struct ompi_op_t *op; /* NULL for collectives without reduction */
    int tag;
    const int *rank_of;   /* algorithm rank -> communicator rank (the locality order); NULL: the same */
    ptrdiff_t extent;
    size_t dtype_size;        /* bytes of data in one element */
    char *base[HDRING_NBUFS]; /* address of element 0 of each buffer */
    mca_coll_hdring_tables_t *tables; /* for hdring_take */
    size_t max_message;       /* elements per PML message before a derived datatype carries it */
    size_t inline_pieces_bytes; /* messages within a node cut in pieces up to this; 0: every message whole */
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
    bool poisoned;            /* the run failed on this rank: empty messages, no local work (pml_poison) */
    struct {                  /* messages started and not yet waited for (hdring_isend, hdring_irecv) */
        uint32_t used;        /* bit i: slot i holds one */
        uint32_t receives;    /* bit i: it is a receive */
        struct ompi_request_t *req[HDRING_MAX_INFLIGHT][HDRING_MAX_PIECES]; /* one per piece */
        mca_coll_hdring_pml_msg_t msg[HDRING_MAX_INFLIGHT];
    } inflight;
    mca_coll_hdring_pml_posted_t posted; /* a nonblocking exchange (room: 0 for blocking runs) */
    hdring_xport_t xport;
} mca_coll_hdring_pml_t;

/* Runs the rest of the call poisoned (coll_hdring_pml.h), for the Open MPI error ompi_error. */
static inline void mca_coll_hdring_pml_poison(mca_coll_hdring_pml_t *t, int ompi_error)
{
    t->poisoned = true;
    t->error = ompi_error;
}

/* ---- a communicator's module ---- */

/* The lower-priority implementation of each collective and kind hdring provides, kept for the calls it declines:
 * the fields of the communicator's table (mca_coll_base_comm_coll_t) with the same names. */
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
    mca_coll_base_module_iallreduce_fn_t coll_iallreduce;
    mca_coll_base_module_t *coll_iallreduce_module;
    mca_coll_base_module_ireduce_scatter_fn_t coll_ireduce_scatter;
    mca_coll_base_module_t *coll_ireduce_scatter_module;
    mca_coll_base_module_ireduce_scatter_block_fn_t coll_ireduce_scatter_block;
    mca_coll_base_module_t *coll_ireduce_scatter_block_module;
    mca_coll_base_module_iallgather_fn_t coll_iallgather;
    mca_coll_base_module_t *coll_iallgather_module;
    mca_coll_base_module_ibcast_fn_t coll_ibcast;
    mca_coll_base_module_t *coll_ibcast_module;
    mca_coll_base_module_allreduce_init_fn_t coll_allreduce_init;
    mca_coll_base_module_t *coll_allreduce_init_module;
    mca_coll_base_module_reduce_scatter_init_fn_t coll_reduce_scatter_init;
    mca_coll_base_module_t *coll_reduce_scatter_init_module;
    mca_coll_base_module_reduce_scatter_block_init_fn_t coll_reduce_scatter_block_init;
    mca_coll_base_module_t *coll_reduce_scatter_block_init_module;
    mca_coll_base_module_allgather_init_fn_t coll_allgather_init;
    mca_coll_base_module_t *coll_allgather_init_module;
    mca_coll_base_module_bcast_init_fn_t coll_bcast_init;
    mca_coll_base_module_t *coll_bcast_init_module;
} mca_coll_hdring_fallback_t;

/* Scratch memory kept from call to call (coll_hdring_memory.c): a module's for its blocking calls, up to
 * config.scratch_cache_bytes; a request's for its starts. */
typedef struct mca_coll_hdring_scratch {
    void *mem;
    size_t bytes;
    size_t limit; /* the most it keeps: a need beyond takes memory of the call's own */
} mca_coll_hdring_scratch_t;

/* Where a run's scratch lies in its memory (coll_hdring_memory.h): `total` bytes; TMP's and WORK's bases that far
 * from its start. */
typedef struct mca_coll_hdring_scratch_layout {
    size_t total;
    ptrdiff_t tmp_at, work_at;
} mca_coll_hdring_scratch_layout_t;

/* A collective's last call on a module, as far as its key depends on it (coll_hdring_call.c): a call with the same
 * datatypes, op, counts, root and MPI_IN_PLACE has the same key. The datatypes and op are referenced, so that
 * none of them is freed and another made at its address while the module remembers it. Reduce_scatter's counts
 * are an array: its calls are not remembered. */
typedef struct mca_coll_hdring_seen {
    struct ompi_datatype_t *dtype, *sdtype; /* NULL: nothing remembered */
    struct ompi_op_t *op;
    size_t count;
    int scount, root;
    bool in_place;
} mca_coll_hdring_seen_t;

typedef struct mca_coll_hdring_module_t {
    mca_coll_base_module_t super;
    mca_coll_hdring_setup_t *setup;
    mca_coll_hdring_fallback_t fallback;
    bool fallback_retained;
    /* the task of each collective's last call, referenced, and that call: a call like it takes the task without
     * working out its key (most calls repeat the one before) */
    mca_coll_hdring_task_t *last[MCA_COLL_HDRING_NCOLLS];
    mca_coll_hdring_seen_t seen[MCA_COLL_HDRING_NCOLLS];
    /* each collective's blocking run, kept prepared (bit c of `ready`) for its last call: a call like it resets
     * what a run changes instead of preparing all again (coll_hdring_run.h) */
    struct mca_coll_hdring_run *runs[MCA_COLL_HDRING_NCOLLS];
    unsigned ready;
    mca_coll_hdring_scratch_t scratch;  /* blocking calls' */
    mca_coll_hdring_tables_t tables;    /* blocking calls' */
    mca_coll_hdring_scratch_t kept;     /* tolerant allreduce in place: the contribution (coll_hdring_tolerant.c) */
} mca_coll_hdring_module_t;

END_C_DECLS

#endif
