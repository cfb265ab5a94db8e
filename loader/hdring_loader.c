/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * The per-user hdring loader: what scripts/install.sh --user puts in $HOME/.openmpi/components as
 * mca_coll_hdring.so. Every Open MPI series searches that directory, and a component loads only into the series it
 * was built for: a 4.1 build there makes every 5.0 job warn that it cannot open it, and the other way round. So the
 * builds go to $HOME/.openmpi/hdring/<series>/ and this file, which needs nothing of Open MPI, goes where every
 * series looks. When Open MPI opens it, it asks the running library its series (MPI_Get_library_version, which MPI
 * allows at any time), loads the build for that series and copies its component structure into its own, which is
 * what Open MPI reads: from then on the build serves as if Open MPI had opened it itself.
 *
 * With no build for the running series, the component it shows Open MPI refuses to register and open with the code
 * Open MPI takes as "ignore me quietly": that series' jobs (and ompi_info) go on as if hdring were not installed. A build that is there but
 * cannot be loaded is reported on stderr, once per process, with the loader's reason.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The head of every Open MPI component structure: mca_base_component_2_1_0_t of opal/mca/mca.h, the same in the
 * 4.1 and 5.0 series. */
typedef struct {
    int mca_major_version, mca_minor_version, mca_release_version;
    char project_name[16];
    int project_major, project_minor, project_release;
    char type_name[32];
    int type_major, type_minor, type_release;
    char component_name[64];
    int component_major, component_minor, component_release;
    int (*open_component)(void);
    int (*close_component)(void);
    int (*query_component)(void **module, int *priority);
    int (*register_params)(void);
    int32_t flags;
    char reserved[28];
} base_component_t;

#define NOT_AVAILABLE (-16) /* OPAL_ERR_NOT_AVAILABLE in both series: the component is ignored without a word */
#define ROOM 8192           /* bytes for the build's component structure (hdring's is about 1 KiB) */

/* What Open MPI looks up by name when it opens this file. */
__attribute__((visibility("default"))) union {
    base_component_t base;
    char bytes[ROOM];
    long double align;
} mca_coll_hdring_component;

static int not_available(void) { return NOT_AVAILABLE; }

/* The running Open MPI's series, from its library version ("Open MPI v5.0.9, ..."): false if it cannot tell. */
static int series_of_running_library(int *major, int *minor)
{
    int (*get_version)(char *, int *) = (int (*)(char *, int *)) dlsym(RTLD_DEFAULT, "MPI_Get_library_version");
    char version[8192] = "";
    int len = 0;
    if (NULL == get_version || 0 != get_version(version, &len)) {
        return 0;
    }
    const char *v = strstr(version, "Open MPI v");
    return NULL != v && 2 == sscanf(v, "Open MPI v%d.%d", major, minor);
}

/* The build for series major.minor: <this file's directory>/../hdring/<major>.<minor>/mca_coll_hdring.so */
static int build_path(int major, int minor, char *path, size_t size)
{
    Dl_info self;
    if (0 == dladdr((void *) &mca_coll_hdring_component, &self) || NULL == self.dli_fname) {
        return 0;
    }
    const char *slash = strrchr(self.dli_fname, '/');
    const int dir_len = NULL == slash ? 1 : (int) (slash - self.dli_fname);
    const char *dir = NULL == slash ? "." : self.dli_fname;
    const int n = snprintf(path, size, "%.*s/../hdring/%d.%d/mca_coll_hdring.so", dir_len, dir, major, minor);
    return n > 0 && (size_t) n < size;
}

__attribute__((constructor)) static void load_build_for_running_series(void)
{
    base_component_t *c = &mca_coll_hdring_component.base;
    int major = 0, minor = 0;
    char path[PATH_MAX];

    /* until a build is loaded: a component Open MPI opens and ignores */
    c->mca_major_version = 2;
    c->mca_minor_version = 1;
    strcpy(c->project_name, "ompi");
    strcpy(c->type_name, "coll");
    strcpy(c->component_name, "hdring");
    c->register_params = not_available; /* ompi_info does not list it either */
    c->open_component = not_available;
    if (!series_of_running_library(&major, &minor) || !build_path(major, minor, path, sizeof(path)) ||
        0 != access(path, F_OK)) {
        return; /* no build for this series: hdring is not installed for it */
    }
    c->project_major = major;
    c->project_minor = minor;
    void *build = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    if (NULL == build) {
        fprintf(stderr, "hdring: %s cannot be loaded (%s); this Open MPI %d.%d job runs without hdring\n", path,
                dlerror(), major, minor);
        return;
    }
    void *theirs = dlsym(build, "mca_coll_hdring_component");
    const ElfW(Sym) *sym = NULL;
    Dl_info info;
    if (NULL == theirs || 0 == dladdr1(theirs, &info, (void **) &sym, RTLD_DL_SYMENT) || NULL == sym ||
        0 == sym->st_size || sym->st_size > ROOM) {
        fprintf(stderr, "hdring: %s has no component structure hdring's loader can take; this Open MPI %d.%d "
                        "job runs without hdring\n", path, major, minor);
        return;
    }
    if (theirs != (void *) &mca_coll_hdring_component) {
        memcpy(&mca_coll_hdring_component, theirs, sym->st_size);
    }
}
