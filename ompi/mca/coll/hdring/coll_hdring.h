/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring: ring, recursive halving-doubling, binary-block, Bruck, tree and pipelined collectives for Open MPI
 * 4.1 and 5.0, blocking, nonblocking and persistent. This header holds what every part of the component shares: a
 * call as the MPI function gave it, and a communicator's module. Each part declares its own types and functions in
 * its own header.
 *
 * The parts, from the bottom up:
 *   coll_hdring_ompi.h      the Open MPI series and what differs between them
 *   coll_hdring_util        messages to the user, the trace stream, the process's lock
 *   coll_hdring_params      the MPI collectives and the MCA parameters
 *   coll_hdring_msg         messages as the PML takes them (pieces, derived datatypes, packing) and their exchange
 *   coll_hdring_exec        a run of a schedule over the PML, its messages resolved once; local reductions, copies
 *   coll_hdring_memory      scratch and table memory of a call
 *   coll_hdring_bootstrap   the one exchange hdring makes while a communicator is being created
 *   coll_hdring_network     the network measured once per job by node leaders, agreed by every rank
 *   coll_hdring_agreement   every rank of a new communicator decides from the same parameters
 *   coll_hdring_setup       where a communicator's ranks sit, shared by communicators placed alike
 *   coll_hdring_decision    which algorithm serves a call, and why
 *   coll_hdring_decisions   the decisions file: read once, what the job measured added at MPI_Finalize
 *   coll_hdring_task        a call's decision and recorded schedule, built once and cached in its setup
 *   coll_hdring_prepared    a call prepared once (task, scratch, messages resolved) and run again, of every kind
 *   coll_hdring_select      which candidate serves a call: measured in the job, or from the decisions file
 *   coll_hdring_call        the module's collectives: a prepared call's run, its request, or the fallback
 *   coll_hdring_tolerant    an allreduce that survives a lost rank (ULFM): the call, an agreement, the survivors
 *   coll_hdring_module      a communicator's module: query, enable (the fallback kept), disable
 *   coll_hdring_component   the component: registration, open, close
 * and the MPI-free core, hdring_*.[ch] (patterns, kernels, algorithm families, the cost model, schedules).
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

BEGIN_C_DECLS

/* ---- a call ---- */

/* The kinds of a collective call. */
typedef enum mca_coll_hdring_kind {
    MCA_COLL_HDRING_BLOCKING,
    MCA_COLL_HDRING_NONBLOCKING,
    MCA_COLL_HDRING_PERSISTENT,
    MCA_COLL_HDRING_NKINDS
} mca_coll_hdring_kind_t;

/* A call, as the MPI function gave it (coll_hdring_call.c): the buffers and what their elements are. */
typedef struct mca_coll_hdring_args {
    mca_coll_hdring_coll_t coll;
    int scount;                    /* allgather: the send count (and sdtype the send type) */
    const void *sbuf;              /* MPI_IN_PLACE allowed */
    void *rbuf;                    /* bcast: the buffer */
    size_t count;     /* allreduce, bcast: elements; reduce_scatter_block, allgather: per block (allgather: receive) */
    const int *rcounts;            /* reduce_scatter: each block's */
    struct ompi_datatype_t *dtype; /* the elements' (allgather: the receive type) */
    struct ompi_datatype_t *sdtype;
    struct ompi_op_t *op;          /* NULL without reduction */
    struct ompi_info_t *info;      /* persistent */
    int root;                      /* bcast */
} mca_coll_hdring_args_t;

/* ---- memory a module keeps ---- */

/* Scratch memory kept from call to call (coll_hdring_memory.c): a module's for its blocking calls, up to
 * config.scratch_cache_bytes; a prepared call's for its requests. */
typedef struct mca_coll_hdring_scratch {
    void *mem;
    size_t bytes;
    size_t limit; /* the most it keeps: a need beyond takes memory of the call's own */
} mca_coll_hdring_scratch_t;

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

struct mca_coll_hdring_setup;    /* coll_hdring_setup.h */
struct mca_coll_hdring_prepared; /* coll_hdring_prepared.h */
struct mca_coll_hdring_select;   /* coll_hdring_select.h */

typedef struct mca_coll_hdring_module_t {
    mca_coll_base_module_t super;
    struct mca_coll_hdring_setup *setup;
    mca_coll_hdring_fallback_t fallback;
    bool fallback_retained;
    /* the blocking allreduce without tolerance: what the tolerant one runs first (coll_hdring_tolerant.h) */
    mca_coll_base_module_allreduce_fn_t plain_allreduce;
    /* the calls prepared on this module, most recently used first (coll_hdring_prepared.h) */
    struct mca_coll_hdring_prepared *newest, *oldest;
    int nprepared;
    mca_coll_hdring_scratch_t scratch;  /* blocking calls' */
    bool tracing;                       /* coll_hdring_verbose or coll_hdring_trace_changes is set */
    /* measured selection and the decisions file (coll_hdring_select.h): on when `selecting` */
    bool selecting;
    struct mca_coll_hdring_select *select;
} mca_coll_hdring_module_t;

END_C_DECLS

#endif
