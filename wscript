# SPDX-License-Identifier: GPL-2.0-only
#
# waf build of the debloat module for ns-3.35 and older trees (contrib/debloat).
# The file list comes from module-files.txt, the same list CMakeLists.txt reads.

import os


DEPENDENCIES = ["core", "network", "traffic-control", "internet", "point-to-point", "applications"]


def _files(bld, section):
    """Returns the entries of one [section] of module-files.txt (bld is at the module root)."""
    files = []
    current = None
    with open(os.path.join(bld.path.abspath(), "module-files.txt")) as listing:
        for line in listing:
            line = line.strip()
            if line.startswith("[") and line.endswith("]"):
                current = line[1:-1]
            elif current == section and line and not line.startswith("#"):
                files.append(line)
    return files


def _version_defines(bld):
    """DEBLOAT_NS3_VERSION from the tree's VERSION file: "3.35" -> 335, "3-dev" -> 999."""
    with open(os.path.join(bld.srcnode.abspath(), "VERSION")) as version_file:
        version = version_file.read().strip()
    parts = version.split(".")
    if len(parts) >= 2 and parts[0].isdigit() and parts[1].isdigit():
        number = int(parts[0]) * 100 + int(parts[1])
    else:
        number = 999
    return ["DEBLOAT_NS3_VERSION=%d" % number]


def configure(conf):
    # The flent writer compresses with Boost.Iostreams (gzip); the results store is SQLite.
    conf.check_cfg(
        package="sqlite3", uselib_store="DEBLOAT_SQLITE3", args=["--cflags", "--libs"]
    )
    conf.check_cxx(lib="boost_iostreams", uselib_store="DEBLOAT_BOOST_IOSTREAMS")
    # Optional: the GoogleTest cases of the cores, run as the TestSuite debloat-unit-tests.
    conf.check_cxx(
        lib=["gtest", "pthread"],
        header_name="gtest/gtest.h",
        uselib_store="DEBLOAT_GTEST",
        mandatory=False,
    )


def build(bld):
    defines = _version_defines(bld)

    module = bld.create_ns3_module("debloat", DEPENDENCIES)
    module.source = _files(bld, "core-sources") + _files(bld, "sources")
    module.defines = defines
    # Public headers include debloat-compat.h: programs that use the module need the version.
    module.export_defines = defines
    module.uselib = "DEBLOAT_SQLITE3 DEBLOAT_BOOST_IOSTREAMS"

    module_test = bld.create_ns3_module_test_library("debloat")
    module_test.source = _files(bld, "tests")
    module_test.defines = defines
    if bld.env["LIB_DEBLOAT_GTEST"]:
        module_test.source += _files(bld, "unit-tests") + _files(bld, "unit-test-suite")
        module_test.uselib = "DEBLOAT_GTEST"

    headers = bld(features="ns3header")
    headers.module = "debloat"
    headers.source = _files(bld, "headers")

    if bld.env["ENABLE_EXAMPLES"]:
        # Built from examples/ so that test.py finds them in build/contrib/debloat/examples.
        bld.debloat_examples = [os.path.basename(f) for f in _files(bld, "examples")]
        bld.debloat_dependencies = ["debloat"] + DEPENDENCIES
        bld.debloat_defines = defines
        bld.recurse("examples")
