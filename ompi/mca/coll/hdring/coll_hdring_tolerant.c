/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring tolerant allreduce (coll_hdring_tolerant.h).
 *
 * Algorithm   The call runs as any other (the module's plain allreduce). Then its ranks agree, by ULFM's agreement (which
 *             survives failures and gives every survivor the same answer), whether each of them succeeded (the
 *             AND of one flag per rank) and which ranks were lost. What follows depends on that alone, never on a
 *             status one rank saw (one survivor may see a failure in its call, another only in the agreement), so
 *             every survivor takes the same branch. All succeeded: the call is done, every survivor holding every
 *             rank's contribution, the lost rank's too when it died after giving it; MPI_ERR_PROC_FAILED if a rank
 *             was lost, so that the program learns of it in this call. Not all: the survivors form a communicator
 *             of their own (shrink), each puts back its own contribution, and the allreduce runs again among them:
 *             the same key on the same survivors' setup, so the same algorithm and the same bits on every
 *             survivor, and MPI_ERR_PROC_FAILED when a rank was lost. A rank lost during that is handled the same
 *             way one level down (the survivors' communicator is tolerant too). After a loss, ULFM refuses
 *             collectives on the communicator: the program shrinks it to go on, as after any failure.
 *             hdring keeps this promise on the survivors that call it: Open MPI's MPI_Allreduce answers
 *             MPI_ERR_PROC_FAILED itself, before any component sees the call, on a rank that already knows of a
 *             loss when it calls (ompi_comm_iface_coll_check), so a loss that some survivors learn of between
 *             two calls leaves them out of the next one (README, known issues).
 * Restrictions  Blocking allreduce only (the nonblocking and persistent ones fail as usual); Open MPI 5 built
 *             with ULFM, run with mpirun --with-ft ulfm; every rank sets coll_hdring_tolerant alike (it is a
 *             decisive parameter, checked at communicator creation). A call that fails on some rank without a
 *             loss (no memory) runs again the same way, on all ranks.
 * Cost        A failure-free call: the plain call plus one agreement (ULFM's, a few latencies: 2.5 us at 2 ranks
 *             here) and, with MPI_IN_PLACE, a copy of the vector to start again from (memory of the
 *             call's own). A call that loses a rank: the failure's detection, the agreement, the shrink (agreements and
 *             a new communicator's setup) and the allreduce again on the survivors.
 */
#include "coll_hdring_tolerant.h"

#include <stdlib.h>

/* A copy of count elements of dtype at buf, for the call (*mem: free it after): where it starts, NULL without
 * memory. */
static char *copy_of(const void *buf, size_t count, struct ompi_datatype_t *dtype, void **mem)
{
    ptrdiff_t gap;
    const size_t span = (size_t) opal_datatype_span(&dtype->super, (int64_t) count, &gap);
    if (NULL == (*mem = malloc(span))) {
        return NULL;
    }
    char *at = (char *) *mem - gap;
    return OMPI_SUCCESS == ompi_datatype_copy_content_same_ddt(dtype, (size_t) count, at, (char *) buf) ? at : NULL;
}

/* The tolerant allreduce, with this rank's contribution kept in own when in place. */
static int tolerant_call(mca_coll_hdring_module_t *m, const void *sbuf, void *rbuf, int count,
                         struct ompi_datatype_t *dtype, struct ompi_op_t *op, struct ompi_communicator_t *comm,
                         const char *own)
{
    const int rc = m->plain_allreduce(sbuf, rbuf, count, dtype, op, comm, &m->super);
    int all_succeeded = OMPI_SUCCESS == rc, nfailed = 0;
    const int agreed = hdring_ulfm_agree(comm, &all_succeeded, &nfailed);
    if (OMPI_SUCCESS != agreed) {
        return agreed; /* no agreement, so nothing every survivor knows alike (ULFM's agreement does not fail so) */
    }
    /* From here on only what the survivors agreed decides, never a status one rank saw: all take the same branch */
    if (all_succeeded) { /* every survivor holds every rank's reduction, the lost one's included */
        return 0 == nfailed ? OMPI_SUCCESS : HDRING_ERR_PROC_FAILED;
    }
    struct ompi_communicator_t *survivors = NULL;
    int again = hdring_ulfm_shrink(comm, &survivors);
    if (OMPI_SUCCESS == again) {
        const bool lost = ompi_comm_size(survivors) < ompi_comm_size(comm);
        /* the survivors' own allreduce: tolerant too */
        again = survivors->c_coll->coll_allreduce(NULL != own ? own : sbuf, rbuf, count, dtype, op, survivors,
                                                  survivors->c_coll->coll_allreduce_module);
        ompi_comm_free(&survivors);
        again = OMPI_SUCCESS == again && lost ? HDRING_ERR_PROC_FAILED : again;
    }
    return again;
}

int mca_coll_hdring_tolerant_allreduce(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                                       struct ompi_op_t *op, struct ompi_communicator_t *comm,
                                       mca_coll_base_module_t *module)
{
    mca_coll_hdring_module_t *m = (mca_coll_hdring_module_t *) module;
    /* in place, the run overwrites this rank's contribution: a copy is kept to start again from */
    char *own = NULL;
    void *mem = NULL;
    if (MPI_IN_PLACE == sbuf && 0 != count && NULL == (own = copy_of(rbuf, (size_t) count, dtype, &mem))) {
        free(mem);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    const int rc = tolerant_call(m, sbuf, rbuf, count, dtype, op, comm, own);
    free(mem);
    return rc;
}
