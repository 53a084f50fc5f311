# The tests import the gf2layout package built in the build tree (GF2LAYOUT_BUILD_DIR, set by the
# ctest entry) and find the project's test data next to this file.
import os
import sys

build = os.environ.get("GF2LAYOUT_BUILD_DIR")
if build:
    sys.path.insert(0, build)

DATA = os.path.join(os.path.dirname(__file__), "..", "data")
