/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring and the Open MPI series it is built for: the one place that knows which (4.1 or 5.0, from
 * ompi_config.h) and what differs between them. The rest of the component includes this header for the headers
 * that moved and uses the names below; nothing else tests a version.
 *
 *                          4.1                          5.0
 *   component version      coll 2.0.0                   coll 2.4.0 (module 2.4.0: agree/iagree, no ft_event)
 *   runtime, process name  ompi/mca/rte (ORTE)          ompi/runtime/ompi_rte.h (PMIx)
 *   runtime's job data     opal/mca/pmix/pmix.h         opal/mca/pmix/pmix-internal.h, PMIx's own keys
 *   threads                opal/threads                 opal/mca/threads
 *   shared-memory BTL      vader                        sm (vader a synonym)
 *   ob1's eager header     56 bytes                     80 bytes
 *   process failures       none (no ULFM)               ULFM: agreement (the coll_agree slot), shrink, requests
 *                                                        that fail (a dead peer, a revoked communicator)
 */
#ifndef MCA_COLL_HDRING_OMPI_H
#define MCA_COLL_HDRING_OMPI_H

#include "ompi_config.h"

#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

#if OMPI_MAJOR_VERSION == 4 && OMPI_MINOR_VERSION == 1
#include "ompi/mca/rte/rte.h"
#include "opal/mca/pmix/pmix.h"
#include "opal/threads/mutex.h"

#define HDRING_COLL_BASE_VERSION MCA_COLL_BASE_VERSION_2_0_0
#define HDRING_KEY_HOSTNAME OPAL_PMIX_HOSTNAME
#define HDRING_KEY_CPUSET OPAL_PMIX_CPUSET
#define HDRING_SCOPE_GLOBAL OPAL_PMIX_GLOBAL
#define HDRING_TYPE_STRING OPAL_STRING
#define HDRING_TYPE_UINT64 OPAL_UINT64
#define HDRING_SM_BTL "vader"
#define HDRING_PML_EAGER_HEADER_BYTES HDRING_PML_EAGER_HEADER_BYTES_4_1
#define HDRING_EAGER_BYTES_TEXT "4040"          /* the BTLs' default eager limits less the header, for help texts */
#define HDRING_NETWORK_EAGER_BYTES_TEXT "65480"

/* No ULFM in 4.1: no failure to survive, nothing agreed, nothing shrunk. */
#define HDRING_HAVE_ULFM 0
#define HDRING_ERR_PROC_FAILED MPI_ERR_OTHER
static inline int hdring_ulfm_agree(struct ompi_communicator_t *comm, int *flag, int *nfailed)
{
    (void) comm, (void) flag, (void) nfailed;
    return OMPI_ERR_NOT_SUPPORTED;
}
static inline int hdring_ulfm_shrink(struct ompi_communicator_t *comm, struct ompi_communicator_t **survivors)
{
    (void) comm, (void) survivors;
    return OMPI_ERR_NOT_SUPPORTED;
}
static inline bool hdring_request_failed(struct ompi_request_t *req)
{
    (void) req;
    return false;
}
static inline int hdring_comm_failed(struct ompi_communicator_t *comm)
{
    (void) comm;
    return OMPI_SUCCESS;
}

#elif OMPI_MAJOR_VERSION == 5
#include "ompi/group/group.h"
#include "ompi/request/request.h"
#include "ompi/runtime/ompi_rte.h"
#include "ompi/runtime/params.h"
#include "opal/mca/pmix/pmix-internal.h"
#include "opal/mca/threads/mutex.h"

#define HDRING_COLL_BASE_VERSION MCA_COLL_BASE_VERSION_2_4_0
#define HDRING_KEY_HOSTNAME PMIX_HOSTNAME
#define HDRING_KEY_CPUSET PMIX_CPUSET
#define HDRING_SCOPE_GLOBAL PMIX_GLOBAL
#define HDRING_TYPE_STRING PMIX_STRING
#define HDRING_TYPE_UINT64 PMIX_UINT64
#define HDRING_SM_BTL "sm"
#define HDRING_PML_EAGER_HEADER_BYTES HDRING_PML_EAGER_HEADER_BYTES_5_0
#define HDRING_EAGER_BYTES_TEXT "4016"
#define HDRING_NETWORK_EAGER_BYTES_TEXT "65456"

/* ULFM, where Open MPI was built with it. hdring_ulfm_agree: the bitwise AND of every live rank's flag and how many
 * of comm's ranks failed, both the same on every survivor. One agreement without a failure; with one, agreements
 * on the group of failed ranks until they end without a new one, as MPIX_Comm_shrink does (ULFM's agreement returns
 * MPI_ERR_PROC_FAILED while ranks disagree on that group; its flag is the AND of the live ranks' flags either way).
 * hdring_ulfm_shrink: the communicator of the survivors, as MPIX_Comm_shrink makes it. */
#define HDRING_HAVE_ULFM OPAL_ENABLE_FT_MPI
#define HDRING_ERR_PROC_FAILED MPI_ERR_PROC_FAILED
static inline int hdring_ulfm_agree(struct ompi_communicator_t *comm, int *flag, int *nfailed)
{
#if OPAL_ENABLE_FT_MPI
    ompi_group_t *failed = NULL;
    int rc;
    opal_mutex_lock(&ompi_group_afp_mutex);
    rc = ompi_group_intersection(comm->c_remote_group, ompi_group_all_failed_procs, &failed);
    opal_mutex_unlock(&ompi_group_afp_mutex);
    while (OMPI_SUCCESS == rc) {
        rc = comm->c_coll->coll_agree(flag, 1, &ompi_mpi_int.dt, &ompi_mpi_op_band.op, &failed, true, comm,
                                      comm->c_coll->coll_agree_module);
        if (MPI_ERR_PROC_FAILED != rc) {
            break;
        }
        rc = OMPI_SUCCESS; /* again, on the group it returned */
    }
    *nfailed = NULL == failed ? 0 : ompi_group_size(failed);
    if (NULL != failed) {
        OBJ_RELEASE(failed);
    }
    return rc;
#else
    (void) comm, (void) flag, (void) nfailed;
    return OMPI_ERR_NOT_SUPPORTED;
#endif
}
static inline int hdring_ulfm_shrink(struct ompi_communicator_t *comm, struct ompi_communicator_t **survivors)
{
#if OPAL_ENABLE_FT_MPI
    return ompi_comm_shrink_internal(comm, survivors);
#else
    (void) comm, (void) survivors;
    return OMPI_ERR_NOT_SUPPORTED;
#endif
}
/* Whether a PML request that has not completed never will, because its peer died or its communicator was revoked
 * (for collectives: after any failure in it): ULFM then completes it in error, as Open MPI's own waits find out.
 * A collective that tests its requests itself, as nonblocking ones do, must ask, or it waits for ever (libnbc asks
 * too). */
static inline bool hdring_request_failed(struct ompi_request_t *req)
{
#if OPAL_ENABLE_FT_MPI
    return ompi_request_is_failed(req);
#else
    (void) req;
    return false;
#endif
}
/* The error a collective started on comm now would end with, before it posts anything: MPI_ERR_REVOKED on a revoked
 * communicator, MPI_ERR_PROC_FAILED on one whose collectives ULFM stopped after a failure; OMPI_SUCCESS otherwise.
 * The MPI layer checks this for new calls; MPI_Start of a persistent request does not. */
static inline int hdring_comm_failed(struct ompi_communicator_t *comm)
{
#if OPAL_ENABLE_FT_MPI
    if (ompi_ftmpi_enabled) {
        return ompi_comm_is_revoked(comm) ? MPI_ERR_REVOKED
               : ompi_comm_coll_revoked(comm) ? MPI_ERR_PROC_FAILED
                                               : OMPI_SUCCESS;
    }
#endif
    (void) comm;
    return OMPI_SUCCESS;
}

#else
#error "coll/hdring is built for Open MPI 4.1 or 5.0 (configure checks this)"
#endif

#endif
