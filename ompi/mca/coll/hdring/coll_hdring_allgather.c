/*
 * coll/hdring MPI_Allgather.
 */
#include "ompi_config.h"

#include "ompi/datatype/ompi_datatype.h"

#include "coll_hdring.h"

int mca_coll_hdring_allgather(const void *sbuf, int scount, struct ompi_datatype_t *sdtype, void *rbuf,
                              int rcount, struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                              mca_coll_base_module_t *module)
{
    mca_coll_hdring_module_t *m = (mca_coll_hdring_module_t *) module;
    mca_coll_hdring_choice_t choice;
    size_t type_size;

    ompi_datatype_type_size(rdtype, &type_size);
    const mca_coll_hdring_call_t call = {
        .coll = HDRING_ALLGATHER,
        .comm_size = ompi_comm_size(comm),
        .bytes = (size_t) ompi_comm_size(comm) * (size_t) rcount * type_size,
        .ordered = false,
    };
    mca_coll_hdring_decide(m, comm, &call, &choice);
    return m->fallback.allgather(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, m->fallback.allgather_module);
}
