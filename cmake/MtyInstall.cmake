# mty as a package (docs/embedding.md, "Using mty from CMake and pkg-config"):
# the target mty::mty in the build tree (add_subdirectory) and, with
# MTY_INSTALL, the install rules: static libraries, headers, the `mty`
# binary, the CMake package (mtyConfig.cmake, mtyTargets.cmake) and mty.pc.
# mty::cluster (mty_cluster: mty::Client and the worker, docs/scaling.md) is
# in the CMake package too, not in mty.pc: it needs libnats and OpenSSL,
# which mtyConfig.cmake finds only when a consumer asks for the component
# `cluster` (find_package(mty COMPONENTS cluster)).
# Included from the root CMakeLists.txt after every layer is defined.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The libraries of the package, each before the libraries it links (the
# static link order of mty.pc; checked below), and their exported names.
set(MTY_PACKAGE_LIBS mty_api mty_stdlib mty_runtime mty_interp mty_heap mty_frontend mty_ir mty_vocab)
set(MTY_EXPORT_NAMES mty stdlib runtime interp heap frontend ir vocab)

set(MTY_ALL_LIBS mty_cluster ${MTY_PACKAGE_LIBS})
set(MTY_ALL_NAMES cluster ${MTY_EXPORT_NAMES})

# The public header needs C++20, so every consumer of a layer compiles with it.
target_compile_features(mty_vocab PUBLIC cxx_std_20)

foreach(_lib _name IN ZIP_LISTS MTY_ALL_LIBS MTY_ALL_NAMES)
  # mty::mty is mty_api with everything it links; mty::ir ... the layers.
  set_target_properties(${_lib} PROPERTIES EXPORT_NAME ${_name})
  add_library(mty::${_name} ALIAS ${_lib})
  # The layers name their include directories in the source tree; installed,
  # the headers are under ${CMAKE_INSTALL_INCLUDEDIR} (install(TARGETS ...
  # INCLUDES) below).
  get_target_property(_dirs ${_lib} INTERFACE_INCLUDE_DIRECTORIES)
  set(_wrapped "")
  foreach(_d IN LISTS _dirs)
    if(_d MATCHES "^\\$<")
      list(APPEND _wrapped "${_d}")
    else()
      list(APPEND _wrapped "$<BUILD_INTERFACE:${_d}>")
    endif()
  endforeach()
  set_target_properties(${_lib} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_wrapped}")
  # Boost (Boost.Container in runtime/src/agents.cc) is header-only and no
  # installed header includes it: a consumer needs neither it nor its package.
  get_target_property(_links ${_lib} INTERFACE_LINK_LIBRARIES)
  if(_links)
    list(TRANSFORM _links REPLACE "^Boost::headers$" "$<BUILD_INTERFACE:Boost::headers>")
    set_target_properties(${_lib} PROPERTIES INTERFACE_LINK_LIBRARIES "${_links}")
  endif()
endforeach()

if(NOT MTY_INSTALL)
  return()
endif()

# What the exported link interface names outside mty: CMake packages for
# mtyConfig.cmake's find_dependency calls, pkg-config modules for mty.pc's
# Requires, plain libraries (dl) for its Libs. An mty library may only link
# libraries after it in MTY_PACKAGE_LIBS.
set(_packages "")
set(_modules "")
set(_system "")
foreach(_lib IN LISTS MTY_PACKAGE_LIBS)
  list(FIND MTY_PACKAGE_LIBS ${_lib} _at)
  get_target_property(_links ${_lib} INTERFACE_LINK_LIBRARIES)
  foreach(_item IN LISTS _links)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" _item "${_item}")
    if(_item MATCHES "^\\$<BUILD_INTERFACE:" OR _item MATCHES "^::@")
      continue()
    endif()
    list(FIND MTY_PACKAGE_LIBS "${_item}" _dep_at)
    if(_dep_at GREATER_EQUAL 0)
      if(_dep_at LESS_EQUAL _at)
        message(FATAL_ERROR "${_lib} links ${_item}: put ${_item} after it in MTY_PACKAGE_LIBS")
      endif()
    elseif(_item MATCHES "^absl::(.+)$")
      list(APPEND _packages absl)
      list(APPEND _modules "absl_${CMAKE_MATCH_1}")
    elseif(_item STREQUAL "tomlplusplus::tomlplusplus")
      list(APPEND _packages tomlplusplus)
      list(APPEND _modules tomlplusplus)
    elseif(_item MATCHES "^[A-Za-z0-9_]+$" AND NOT TARGET ${_item})
      list(APPEND _system "-l${_item}")
    else()
      message(FATAL_ERROR "${_lib} links ${_item}, which cmake/MtyInstall.cmake does not know "
                          "how to find for a consumer (mtyConfig.cmake.in, mty.pc.in)")
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES _packages)
list(REMOVE_DUPLICATES _modules)
list(REMOVE_DUPLICATES _system)
set(MTY_FIND_DEPENDENCIES "")
foreach(_p IN LISTS _packages)
  string(APPEND MTY_FIND_DEPENDENCIES "find_dependency(${_p})\n")
endforeach()
list(JOIN _modules ", " MTY_PC_REQUIRES)
list(TRANSFORM MTY_PACKAGE_LIBS PREPEND "-l" OUTPUT_VARIABLE _l)
list(JOIN _l " " MTY_PC_LIBS)
list(JOIN _system " " MTY_PC_SYSTEM_LIBS)

set(MTY_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/mty)
install(TARGETS ${MTY_ALL_LIBS} EXPORT mtyTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS mty RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# include/mty/*.h and every layer's include/mty/<layer>/ (headers and the
# .def tables they include).
foreach(_dir include vocab/include ir/include frontend/include interp/include runtime/include stdlib/include
             cluster/include)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${_dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          FILES_MATCHING PATTERN "*.h" PATTERN "*.def")
endforeach()
install(EXPORT mtyTargets NAMESPACE mty:: DESTINATION ${MTY_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/mtyConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/mtyConfig.cmake
                              INSTALL_DESTINATION ${MTY_CMAKE_DIR})
# 0.x: a new minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mtyConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/mtyConfig.cmake ${PROJECT_BINARY_DIR}/mtyConfigVersion.cmake
        DESTINATION ${MTY_CMAKE_DIR})
# mty.pc finds its prefix from where it is installed (${pcfiledir}), so
# `cmake --install --prefix DIR` may move it.
file(RELATIVE_PATH MTY_PC_PREFIX "${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/$" "" MTY_PC_PREFIX "${MTY_PC_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/mty.pc.in ${PROJECT_BINARY_DIR}/mty.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/mty.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
