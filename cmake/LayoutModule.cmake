# layout_add_module(NAME SOURCES ... DEPENDS ... [INTERNAL]): every library of the project is made
# here, so each has the same shape: target layout_<name>, alias layout::<name>, public headers
# under <dir>/include/layout/<name>/ (one include root per library), versioned, position-
# independent. A library is installed and exported as layout::<name> unless INTERNAL (the CUDA
# runner and the explorer's views serve this project's programs only, as static libraries).
function(layout_add_module name)
  cmake_parse_arguments(ARG "INTERNAL" "" "SOURCES;DEPENDS" ${ARGN})
  if(ARG_INTERNAL)
    # Static whatever BUILD_SHARED_LIBS says: an internal library is not installed, so the
    # installed programs must not need it at run time.
    add_library(layout_${name} STATIC ${ARG_SOURCES})
  else()
    add_library(layout_${name} ${ARG_SOURCES})
  endif()
  add_library(layout::${name} ALIAS layout_${name})
  target_include_directories(layout_${name} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:include>)
  target_link_libraries(layout_${name} PUBLIC ${ARG_DEPENDS})
  set_target_properties(layout_${name} PROPERTIES EXPORT_NAME ${name}
    VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR} POSITION_INDEPENDENT_CODE ON)
  if(NOT ARG_INTERNAL)
    set_property(GLOBAL APPEND PROPERTY LAYOUT_LIBRARY_TARGETS layout_${name})
    set_property(GLOBAL APPEND PROPERTY LAYOUT_HEADER_DIRS ${CMAKE_CURRENT_SOURCE_DIR}/include/)
  endif()
endfunction()
