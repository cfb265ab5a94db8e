/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring MPI_Reduce_scatter and MPI_Reduce_scatter_block: decide, then run the algorithm over the PML or
 * hand the call to the fallback. Block b of the vector (recvcounts[b] elements) goes to rank b; with
 * MPI_IN_PLACE the vector is in recvbuf and the result lands at its start.
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/coll/base/coll_tags.h"
#include "ompi/op/op.h"

#include "coll_hdring.h"

static int run(mca_coll_hdring_module_t *m, const void *sbuf, void *rbuf, const hdring_partition_t *parts,
               struct ompi_datatype_t *dtype, struct ompi_op_t *op, struct ompi_communicator_t *comm, int tag,
               const mca_coll_hdring_choice_t *choice, bool ordered)
{
    mca_coll_hdring_pml_t t;
    hdring_blocks_t blocks;
    hdring_args_t args = {0};
    mca_coll_hdring_args(m, choice, parts, ordered, &blocks, &args);
    mca_coll_hdring_pml_init(&t, m, comm, dtype, op, tag, mca_coll_hdring_in_locality_order(ordered));
    t.base[HDRING_BUF_IN] = (char *) (MPI_IN_PLACE == sbuf ? rbuf : sbuf);
    t.base[HDRING_BUF_OUT] = rbuf;
    int rc = mca_coll_hdring_scratch_acquire(m, &t, hdring_scratch(choice->alg, ompi_comm_size(comm), &args));
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    rc = hdring_run(&t.xport, choice->alg, &args);
    mca_coll_hdring_scratch_release(&t);
    return mca_coll_hdring_pml_error(&t, rc);
}

int mca_coll_hdring_reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                                   struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                   struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_hdring_module_t *m = (mca_coll_hdring_module_t *) module;
    const int p = ompi_comm_size(comm);
    mca_coll_hdring_choice_t choice;
    hdring_partition_t blocks;
    size_t type_size, *counts;
    int rc;

    counts = malloc((size_t) p * sizeof(*counts));
    if (NULL == counts) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (int i = 0; i < p; ++i) {
        counts[i] = (size_t) rcounts[i];
    }
    rc = hdring_partition_from_counts(&blocks, p, counts);
    free(counts);
    if (HDRING_OK != rc) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    ompi_datatype_type_size(dtype, &type_size);
    const mca_coll_hdring_call_t call = {
        .coll = MCA_COLL_HDRING_REDUCE_SCATTER,
        .comm_size = p,
        .bytes = hdring_partition_total(&blocks) * type_size,
        .ordered = !ompi_op_is_commute(op),
    };
    mca_coll_hdring_decide(m, comm, &call, &choice);
    if (choice.fallback) {
        rc = m->fallback.reduce_scatter(sbuf, rbuf, rcounts, dtype, op, comm, m->fallback.reduce_scatter_module);
    } else {
        rc = run(m, sbuf, rbuf, &blocks, dtype, op, comm, MCA_COLL_BASE_TAG_REDUCE_SCATTER, &choice, call.ordered);
    }
    hdring_partition_free(&blocks);
    return rc;
}

int mca_coll_hdring_reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, struct ompi_datatype_t *dtype,
                                         struct ompi_op_t *op, struct ompi_communicator_t *comm,
                                         mca_coll_base_module_t *module)
{
    mca_coll_hdring_module_t *m = (mca_coll_hdring_module_t *) module;
    const int p = ompi_comm_size(comm);
    mca_coll_hdring_choice_t choice;
    hdring_partition_t blocks;
    size_t type_size;
    int rc;

    ompi_datatype_type_size(dtype, &type_size);
    const mca_coll_hdring_call_t call = {
        .coll = MCA_COLL_HDRING_REDUCE_SCATTER_BLOCK,
        .comm_size = p,
        .bytes = (size_t) p * (size_t) rcount * type_size,
        .ordered = !ompi_op_is_commute(op),
    };
    mca_coll_hdring_decide(m, comm, &call, &choice);
    if (choice.fallback) {
        return m->fallback.reduce_scatter_block(sbuf, rbuf, rcount, dtype, op, comm,
                                                m->fallback.reduce_scatter_block_module);
    }
    if (HDRING_OK != hdring_partition_uniform(&blocks, p, (size_t) rcount)) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    rc = run(m, sbuf, rbuf, &blocks, dtype, op, comm, MCA_COLL_BASE_TAG_REDUCE_SCATTER_BLOCK, &choice, call.ordered);
    hdring_partition_free(&blocks);
    return rc;
}
