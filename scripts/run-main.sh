#!/bin/sh
# Set up a fresh Debian 12 machine, build hdring, install it for this user ($HOME/.openmpi/components, which
# Open MPI searches by default) and run an allreduce through it with the decision trace on.
set -e
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh --with-component-dir="$HOME/.openmpi/components"
make -C _build install >/dev/null
echo "installed: $(ls "$HOME/.openmpi/components/mca_coll_hdring.so")"

[ "$(id -u)" -ne 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
make -C _build/test mpi/hdring_check >/dev/null
NP=${NP:-4}
echo "mpirun -np $NP --mca coll_hdring_verbose 1 --mca coll_hdring_allreduce_algorithm ring hdring_check ..."
mpirun -np "$NP" --oversubscribe --bind-to none --mca mpi_yield_when_idle 1 \
    --mca coll_hdring_verbose 1 --mca coll_hdring_allreduce_algorithm ring \
    _build/test/mpi/hdring_check --coll allreduce --alg env --types int,double --counts 1000,1000000 2>&1 |
    sort | uniq -c
