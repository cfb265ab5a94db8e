/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring's measurement of the network (coll_hdring_calibrate): once per job, at MPI_COMM_WORLD's creation
 * when it spans several nodes, the node leaders measure the links between them, and every rank agrees on the
 * values the cost model then uses for the model_network_* parameters left at their defaults.
 */
#ifndef MCA_COLL_HDRING_NETWORK_H
#define MCA_COLL_HDRING_NETWORK_H

#include "coll_hdring.h"

BEGIN_C_DECLS

/* What was measured, the same on every rank. */
typedef struct mca_coll_hdring_network {
    int pairs;             /* pairs of node leaders that measured */
    double latency_us;     /* one way, a small message */
    double bandwidth_mbs;  /* one way, a large message */
    double exchange_mbs;   /* each way, both sending at once */
} mca_coll_hdring_network_t;

/* Measures the network between the nodes of comm (topo: where its ranks sit, several nodes), with every rank of
 * comm: the leaders of nodes 2k and 2k+1 (their lowest ranks) measure, then all ranks exchange the results and
 * take the same values. OMPI_SUCCESS and *out; otherwise (a message failed, no memory, the pairs disagree by more
 * than a factor of 2) an error on every rank alike, with why, and nothing measured. Never waits for a rank that
 * does not take part: every rank of comm calls it. */
int mca_coll_hdring_network_measure(struct ompi_communicator_t *comm, const hdring_topo_t *topo,
                                    mca_coll_hdring_network_t *out, char *why, size_t why_len);

END_C_DECLS

#endif
