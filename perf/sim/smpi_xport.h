/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * The hdring transport (hdring_transport.h) on SMPI's point-to-point calls, so that the MPI-free core runs in
 * SimGrid's simulator as it runs in Open MPI: an exchange is MPI_Irecv for every receive, MPI_Isend for every
 * send and one MPI_Waitall; a started message is an MPI_Isend or MPI_Irecv completed by MPI_Waitall. Algorithm
 * ranks are the communicator's ranks, or the positions of the locality order when the call runs in it (as the
 * component's PML transport maps them, coll_hdring_pml.c).
 *
 * Local work costs simulated time, never host time: a reduction of b bytes charges b / reduce_rate seconds of
 * one core of the rank's host (smpi_execute_benched), copies are free, as SMPI's own collectives copy for free.
 * With `compute` the transport also does the work (float sums, memcpy) on private buffers, for --check; without
 * it the buffers are SMPI_SHARED_MALLOC'd memory whose contents mean nothing, and nothing is touched.
 *
 * The nonblocking split (post_exchange, test_exchange, test) is left out: the driver runs blocking calls only.
 */
#ifndef SMPI_XPORT_H
#define SMPI_XPORT_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#include "hdring_transport.h"

/* Memory taken by the core during one call (hdring_transport_ops_t.take), in blocks released together. */
typedef struct smpi_arena_block smpi_arena_block_t;

typedef struct smpi_xport {
    hdring_xport_t x; /* x.ctx points here */
    MPI_Comm comm;
    int tag;
    char *base[HDRING_NBUFS];
    size_t elem;          /* bytes per element */
    const int *rank_of;   /* algorithm rank -> communicator rank; NULL: the same */
    double reduce_rate;   /* bytes reduced per second, charged in simulated time */
    bool compute;         /* really reduce (float sums) and copy */
    MPI_Request inflight[HDRING_MAX_INFLIGHT];
    smpi_arena_block_t *arena;
} smpi_xport_t;

/* A transport for one call shape: rank `rank` (an algorithm rank) of `size`. Buffers are set in t->base. */
void smpi_xport_init(smpi_xport_t *t, MPI_Comm comm, int rank, int size, const int *rank_of, size_t elem,
                     double reduce_rate, bool compute);
/* The memory taken during a call, released; call after each call. */
void smpi_xport_release(smpi_xport_t *t);

/* Charges the reduction of `bytes` at `rate` bytes per second to the calling rank's core. */
void smpi_charge_reduction(double bytes, double rate);

#endif
