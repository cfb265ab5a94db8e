/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring's bootstrap exchange (coll_hdring_bootstrap.h). It is hdring's own allgather (rhd, log2 p steps)
 * over the PML, not the fallback module's: the communicator is still being created, and han, for one, creates
 * sub-communicators on its first collective, which cannot happen inside another's creation (it hangs).
 */
#include "coll_hdring_bootstrap.h"

#include <limits.h>
#include <string.h>

#include "coll_hdring_exec.h"
#include "coll_hdring_memory.h"
#include "coll_hdring_params.h"

int mca_coll_hdring_gather_values(struct ompi_communicator_t *comm, const int64_t *mine, int n, int64_t *all)
{
    const int p = ompi_comm_size(comm);
    const hdring_partition_t parts = hdring_partition_uniform(p, (size_t) n);
    const hdring_blocks_t blocks = {&parts, NULL, NULL};
    const hdring_args_t args = {.blocks = &blocks};
    mca_coll_hdring_tables_t tables = {0};
    mca_coll_hdring_exec_t t;

    /* messages whole (this exchange checks, among others, that ranks agree on how to cut them), the tag of a
     * blocking allgather: no collective call of the communicator can be in flight yet */
    mca_coll_hdring_exec_init(&t, comm, MPI_INT64_T, NULL, NULL, false, 0, INT_MAX, mca_coll_hdring_tables_take_for,
                              &tables);
    t.base[HDRING_BUF_OUT] = (char *) all;
    if (NULL == mine || NULL == all) { /* no memory for them: the others still find every message, empty */
        mca_coll_hdring_wire_poison(&t.w, OMPI_ERR_OUT_OF_RESOURCE);
    } else {
        memcpy(all + (size_t) ompi_comm_rank(comm) * (size_t) n, mine, (size_t) n * sizeof(*mine));
    }
    (void) mca_coll_hdring_exec_direct(&t, HDRING_ALG_ALLGATHER_RHD, &args,
                                       mca_coll_hdring_coll_tag(MCA_COLL_HDRING_ALLGATHER));
    const int rc = mca_coll_hdring_exec_end(&t);
    mca_coll_hdring_tables_free(&tables);
    return rc;
}
