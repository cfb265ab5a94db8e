/*
 * coll/hdring MPI_Reduce_scatter and MPI_Reduce_scatter_block.
 */
#include "ompi_config.h"

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

#include "coll_hdring.h"

int mca_coll_hdring_reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                                   struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                   struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_hdring_module_t *m = (mca_coll_hdring_module_t *) module;
    mca_coll_hdring_choice_t choice;
    const int p = ompi_comm_size(comm);
    size_t type_size, total = 0;

    ompi_datatype_type_size(dtype, &type_size);
    for (int i = 0; i < p; ++i) {
        total += (size_t) rcounts[i];
    }
    const mca_coll_hdring_call_t call = {
        .coll = HDRING_REDUCE_SCATTER,
        .comm_size = p,
        .bytes = total * type_size,
        .ordered = !ompi_op_is_commute(op),
    };
    mca_coll_hdring_decide(m, comm, &call, &choice);
    return m->fallback.reduce_scatter(sbuf, rbuf, rcounts, dtype, op, comm, m->fallback.reduce_scatter_module);
}

int mca_coll_hdring_reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, struct ompi_datatype_t *dtype,
                                         struct ompi_op_t *op, struct ompi_communicator_t *comm,
                                         mca_coll_base_module_t *module)
{
    mca_coll_hdring_module_t *m = (mca_coll_hdring_module_t *) module;
    mca_coll_hdring_choice_t choice;
    size_t type_size;

    ompi_datatype_type_size(dtype, &type_size);
    const mca_coll_hdring_call_t call = {
        .coll = HDRING_REDUCE_SCATTER_BLOCK,
        .comm_size = ompi_comm_size(comm),
        .bytes = (size_t) ompi_comm_size(comm) * (size_t) rcount * type_size,
        .ordered = !ompi_op_is_commute(op),
    };
    mca_coll_hdring_decide(m, comm, &call, &choice);
    return m->fallback.reduce_scatter_block(sbuf, rbuf, rcount, dtype, op, comm,
                                            m->fallback.reduce_scatter_block_module);
}
