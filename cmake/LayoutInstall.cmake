# `cmake --install build --prefix P`: headers, libraries, the CMake package
# (find_package(layout CONFIG REQUIRED COMPONENTS core triton ...), targets layout::core, ...,
# layout::level_zero and layout::opencl where they were built),
# a pkg-config file (pkg-config --cflags --libs layout) and the tools.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# With shared libraries (-DBUILD_SHARED_LIBS=ON) the installed tools find them next to themselves,
# and each library finds the ones it depends on beside it ($ORIGIN): a RUNPATH is not inherited,
# so a tool that does not use a lower module directly would not find it otherwise.
if(BUILD_SHARED_LIBS)
  get_property(layout_shared_targets GLOBAL PROPERTY LAYOUT_LIBRARY_TARGETS)
  foreach(library ${layout_shared_targets})
    set_target_properties(${library} PROPERTIES INSTALL_RPATH "$ORIGIN")
  endforeach()
  foreach(tool layoutctl layout-explorer)
    if(TARGET ${tool})
      set_target_properties(${tool} PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
    endif()
  endforeach()
endif()

get_property(layout_targets GLOBAL PROPERTY LAYOUT_LIBRARY_TARGETS)
install(TARGETS ${layout_targets} EXPORT layoutTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# Each installed library's include/ root (layout_add_module collects them): include/layout/<lib>/.
get_property(layout_header_dirs GLOBAL PROPERTY LAYOUT_HEADER_DIRS)
list(REMOVE_DUPLICATES layout_header_dirs)
# A module's internal/ headers serve the project's own modules and programs (no installed header
# includes them; tests/architecture/check_layers.sh checks that): they are not installed.
install(DIRECTORY ${layout_header_dirs} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        PATTERN internal EXCLUDE)
foreach(tool layoutctl layout-explorer)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

set(LAYOUT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/layout)
# The components this build has (level_zero and opencl only where they were built), for
# layoutConfig.cmake.
list(TRANSFORM layout_targets REPLACE "^layout_" "" OUTPUT_VARIABLE LAYOUT_COMPONENTS)
list(JOIN LAYOUT_COMPONENTS ", " LAYOUT_COMPONENTS)
install(EXPORT layoutTargets NAMESPACE layout:: DESTINATION ${LAYOUT_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/layoutConfig.cmake.in
  ${PROJECT_BINARY_DIR}/layoutConfig.cmake INSTALL_DESTINATION ${LAYOUT_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/layoutConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/layoutConfig.cmake ${PROJECT_BINARY_DIR}/layoutConfigVersion.cmake
        DESTINATION ${LAYOUT_CMAKE_DIR})

# pkg-config: the liblayout modules, most dependent first (the order static linking needs).
set(LAYOUT_PC_LIBS "")
foreach(module protocol report conversion smem intel xegpu triton target text core)
  string(APPEND LAYOUT_PC_LIBS " -llayout_${module}")
endforeach()
# The prefix relative to the .pc file, so that `cmake --install --prefix P` works for any P.
file(RELATIVE_PATH LAYOUT_PC_UP /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
set(LAYOUT_PC_PREFIX "\${pcfiledir}/${LAYOUT_PC_UP}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/layout.pc.in ${PROJECT_BINARY_DIR}/layout.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/layout.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
