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
 */
#ifndef MCA_COLL_HDRING_OMPI_H
#define MCA_COLL_HDRING_OMPI_H

#include "ompi_config.h"

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

#elif OMPI_MAJOR_VERSION == 5
#include "ompi/runtime/ompi_rte.h"
#include "opal/mca/pmix/pmix-internal.h"
#include "opal/mca/threads/mutex.h"

#define HDRING_COLL_BASE_VERSION MCA_COLL_BASE_VERSION_2_4_0
#define HDRING_KEY_HOSTNAME PMIX_HOSTNAME
#define HDRING_KEY_CPUSET PMIX_CPUSET
#define HDRING_SCOPE_GLOBAL PMIX_GLOBAL
#define HDRING_TYPE_STRING PMIX_STRING
#define HDRING_TYPE_UINT64 PMIX_UINT64
#define HDRING_SM_BTL "sm"

#else
#error "coll/hdring is built for Open MPI 4.1 or 5.0 (configure checks this)"
#endif

#endif
