/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring MPI_Allreduce: decide, then run the algorithm over the PML or hand the call to the fallback; a
 * call that repeats the previous one replays its schedule at once (coll_hdring_repeat.c).
 */
#include "ompi_config.h"

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

#include "coll_hdring.h"

int mca_coll_hdring_allreduce(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                              struct ompi_op_t *op, struct ompi_communicator_t *comm,
                              mca_coll_base_module_t *module)
{
    mca_coll_hdring_module_t *m = (mca_coll_hdring_module_t *) module;
    const mca_coll_hdring_key_t key = mca_coll_hdring_reduction_key((size_t) count, dtype, op, sbuf, rbuf);
    mca_coll_hdring_pml_t *repeat = mca_coll_hdring_repeat_find(m, MCA_COLL_HDRING_ALLREDUCE, &key);
    if (NULL != repeat) {
        return mca_coll_hdring_repeat_run(m, MCA_COLL_HDRING_ALLREDUCE, repeat);
    }

    mca_coll_hdring_choice_t choice;
    mca_coll_hdring_pml_t t;
    size_t type_size;
    int rc;

    ompi_datatype_type_size(dtype, &type_size);
    const mca_coll_hdring_call_t call = {
        .coll = MCA_COLL_HDRING_ALLREDUCE,
        .comm_size = ompi_comm_size(comm),
        .bytes = (size_t) count * type_size,
        .ordered = !ompi_op_is_commute(op),
    };
    mca_coll_hdring_decide(m, comm, &call, &choice);
    if (choice.fallback) {
        return m->fallback.coll_allreduce(sbuf, rbuf, count, dtype, op, comm, m->fallback.coll_allreduce_module);
    }

    hdring_blocks_t none;
    hdring_args_t args = {.count = (size_t) count};
    mca_coll_hdring_args(m, &choice, NULL, call.ordered, type_size, &none, &args);
    mca_coll_hdring_pml_init(&t, m, comm, MCA_COLL_HDRING_ALLREDUCE, dtype, op,
                             mca_coll_hdring_in_locality_order(call.ordered));
    t.base[HDRING_BUF_IN] = (char *) key.in;
    t.base[HDRING_BUF_OUT] = rbuf;
    rc = mca_coll_hdring_scratch_acquire(m, &t, hdring_scratch(&t.xport, choice.alg, &args));
    if (OMPI_SUCCESS == rc) {
        rc = mca_coll_hdring_pml_error(&t, mca_coll_hdring_run(m, &t, MCA_COLL_HDRING_ALLREDUCE, choice.alg, &args,
                                                                  &key));
    }
    mca_coll_hdring_scratch_release(&t);
    return rc;
}
