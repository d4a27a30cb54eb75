# SPDX-License-Identifier: MIT
# Install rules (included when ARCNAV_INSTALL is on): the header, the library, a CMake package with
# the target arcnav::arcnav, a pkg-config file, and (from cli/) the tool with its example maps.
# Everything is placed relative to the prefix, so an installed tree can be moved, and CPack builds
# a Debian package from the same rules (`cpack -G DEB` in the build directory).
include(CMakePackageConfigHelpers)

set(ARCNAV_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/arcnav)
if(ARCNAV_LIBRARY_TYPE STREQUAL "SHARED_LIBRARY")
  set(ARCNAV_KIND shared)
else()
  set(ARCNAV_KIND static)
endif()

install(TARGETS arcnav EXPORT arcnav-targets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES include/arcnav/arcnav.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/arcnav)

# A static and a shared build may be installed into one prefix: each brings its own targets file,
# and arcnav-config.cmake picks one (see there).
install(EXPORT arcnav-targets NAMESPACE arcnav:: DESTINATION ${ARCNAV_CMAKE_DIR}
        FILE arcnav-${ARCNAV_KIND}-targets.cmake)
configure_package_config_file(cmake/arcnav-config.cmake.in
  ${PROJECT_BINARY_DIR}/arcnav-config.cmake INSTALL_DESTINATION ${ARCNAV_CMAKE_DIR})
# Before 1.0 a minor version may break compatibility, as in the soname.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(ARCNAV_COMPATIBILITY SameMinorVersion)
else()
  set(ARCNAV_COMPATIBILITY SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/arcnav-config-version.cmake
  COMPATIBILITY ${ARCNAV_COMPATIBILITY})
install(FILES ${PROJECT_BINARY_DIR}/arcnav-config.cmake
  ${PROJECT_BINARY_DIR}/arcnav-config-version.cmake DESTINATION ${ARCNAV_CMAKE_DIR})

# pkg-config: paths relative to the .pc file's own directory (pkg-config's ${pcfiledir}).
set(ARCNAV_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH ARCNAV_PC_TO_PREFIX ${CMAKE_INSTALL_PREFIX}/${ARCNAV_PC_DIR}
     ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" ARCNAV_PC_TO_PREFIX "${ARCNAV_PC_TO_PREFIX}")
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(ARCNAV_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(ARCNAV_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
set(ARCNAV_PC_CFLAGS "")
if(ARCNAV_KIND STREQUAL "shared")
  set(ARCNAV_PC_CFLAGS " -DARCNAV_SHARED")
endif()
configure_file(cmake/arcnav.pc.in ${PROJECT_BINARY_DIR}/arcnav.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/arcnav.pc DESTINATION ${ARCNAV_PC_DIR})

# Debian package: one package with the library, the header, the CMake and pkg-config files, the
# tool and the example maps. Its dependencies come from dpkg-shlibdeps.
if(ARCNAV_TOP_LEVEL)
  set(ARCNAV_PACKAGE_MAINTAINER "arcnav maintainers <maintainers@arcnav.invalid>"
      CACHE STRING "Maintainer named in the Debian package")
  set(CPACK_PACKAGE_NAME arcnav)
  set(CPACK_PACKAGE_VENDOR arcnav)
  set(CPACK_PACKAGE_CONTACT "${ARCNAV_PACKAGE_MAINTAINER}")
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
  set(CPACK_PACKAGE_DESCRIPTION
      "A C17 library (libc and libm only) that finds the exact shortest path for a circular unit of \
radius R among polygons and circles, made of straight segments and arcs of radius R, with the \
arcnav command-line tool and its example maps.")
  set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
  set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${ARCNAV_PACKAGE_MAINTAINER}")
  set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
  set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  if(ARCNAV_KIND STREQUAL "shared")
    # The package's own library: a shlibs file for packages built against it, and a place for
    # dpkg-shlibdeps to find it when it looks at the tool.
    set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CMAKE_INSTALL_LIBDIR})
  endif()
  include(CPack)
endif()
