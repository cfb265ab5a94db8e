/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * What the simulator driver knows of the simulated machine, and how it times a call.
 *
 * Where ranks sit: each rank's node is its SimGrid host (smpirun maps ranks to hosts from the hostfile), given to
 * hdring_topo_init as the component gives it the runtime's host names; nodes hold as many ranks as the platform's
 * hosts have cores, so the hierarchical algorithms apply as they would on the real cluster.
 *
 * The cost model's parameters (the MCA parameters coll_hdring_model_*) come from the platform, measured in the
 * simulation as the component measures a network at MPI_Init (coll_hdring_network.c), so they include what SMPI
 * adds to the links (its latency and bandwidth factors, its rendezvous above smpi/send-is-detached-thresh):
 *   latency_us              one-way time of an 8-byte message between ranks 0 and 1 of node 0 (ping-pong / 2);
 *   bandwidth_mbs           1 / the slope of the one-way time between 1 MiB and 4 MiB messages, same pair;
 *   network_latency_us      one-way time of an 8-byte message from node 0's first rank to every other node's first
 *                           rank, the mean (routes through a fat tree's spine and within a leaf alike);
 *   network_bandwidth_mbs   as bandwidth_mbs, node 0 to the last node;
 *   network_exchange_mbs    0 (= the bandwidth each way: the platforms' links are split-duplex);
 *   eager_bytes, network_eager_bytes   smpi/send-is-detached-thresh: above it a send waits for its receiver;
 *   reduce_mbs              the platform's host property hdring_reduce_mbs: the rate reductions are charged at.
 * With one rank per node the local pair does not exist: latency_us and bandwidth_mbs keep the component's defaults
 * (nothing then runs within a node). On one node the network's keep them likewise.
 *
 * Timing, the same for hdring and for SMPI's own collectives: every rank starts the timed calls at the same
 * simulated instant, then `calls` calls; each rank's time per call from that instant, the maximum over the ranks:
 * a call's completion from a synchronized start. A barrier alone does not synchronize: on the 64 x 16 fat tree at
 * 64 ranks a dissemination barrier lets ranks go up to 3.2 us apart (those whose messages crossed nodes in more of
 * its rounds leave later), and an 8-byte allreduce takes 3 us. So after a barrier the ranks agree on the latest
 * clock (an allreduce, untimed) and each sleeps until a margin after it (sg_actor_sleep_until), which only a
 * simulator can do exactly.
 */
#ifndef SMPI_WORLD_H
#define SMPI_WORLD_H

#include <mpi.h>

#include "hdring_cost.h"
#include "hdring_topo.h"

typedef struct smpi_world {
    MPI_Comm comm;
    int rank, p;
    int *node;          /* rank -> node (hosts numbered in the order of their lowest rank) */
    hdring_topo_t topo;
    hdring_model_units_t units;
    double reduce_rate; /* bytes per second */
} smpi_world_t;

/* Collective over comm. 0, or -1 with a message on stderr (rank 0). */
int smpi_world_init(smpi_world_t *w, MPI_Comm comm);
void smpi_world_free(smpi_world_t *w);

/* The host's reduction rate in bytes per second (property hdring_reduce_mbs), 0 if the platform has none. */
double smpi_host_reduce_rate(void);

/* The barrier the timing starts from. */
void smpi_barrier(MPI_Comm comm);
/* v[0 .. n) (n at most SMPI_ALLMAX_MAX) the maximum over the ranks, on every rank. */
#define SMPI_ALLMAX_MAX 8
void smpi_allmax(MPI_Comm comm, double *v, int n);

/* Times `calls` calls of call(arg) from a synchronized start: the slowest rank's time per call, in seconds, on
 * every rank. */
double smpi_time_calls(MPI_Comm comm, int calls, void (*call)(void *arg), void *arg);

#endif
