# orcu for CMake: find_package(orcu) with `orcu --cmake-dir` on CMAKE_PREFIX_PATH.
#
#   orcu_tuned_sources(<target> <annotated sources...> [TUNE] [BACKEND auto|cuda|emulate]
#                      [OPTIONS <more orcu options...>])
#
# Each annotated C source becomes, in the build tree, orcu/<name>.tuned.cu (compiled into
# <target>) and orcu/<name>.tuned.h (on <target>'s include path: C code includes it to call
# the tuned functions). The tuned file comes from the results database (orcu apply), or from
# a tune run when TUNE is given (orcu tune). It is made again when its source changes, and
# nothing else is. With BACKEND emulate it is compiled by the C++ compiler against orcu's
# CPU emulation (no GPU, no nvcc); otherwise as CUDA, which is enabled here when a CUDA
# compiler is found.
cmake_minimum_required(VERSION 3.18)

find_program(ORCU_EXECUTABLE orcu DOC "the orcu command")
if(NOT ORCU_EXECUTABLE)
  message(FATAL_ERROR "orcu: the orcu command is not on PATH (set ORCU_EXECUTABLE)")
endif()
get_filename_component(ORCU_EMULATION_DIR "${CMAKE_CURRENT_LIST_DIR}/../emulation" ABSOLUTE)
set(orcu_FOUND TRUE)

include(CheckLanguage)
check_language(CUDA)
if(CMAKE_CUDA_COMPILER)
  enable_language(CUDA)
endif()
# BACKEND emulate compiles the tuned files as C++ and links with it: a project of C and CUDA
# alone (project(app LANGUAGES C CUDA)) gets C++ enabled here, where the language may be
# enabled (a function may not).
get_property(orcu_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
if(NOT "CXX" IN_LIST orcu_languages)
  check_language(CXX)
  if(CMAKE_CXX_COMPILER)
    enable_language(CXX)
  endif()
endif()

function(orcu_tuned_sources target)
  cmake_parse_arguments(ORCU "TUNE" "BACKEND" "OPTIONS" ${ARGN})
  if(NOT ORCU_BACKEND)
    set(ORCU_BACKEND auto)
  endif()
  if(NOT ORCU_BACKEND STREQUAL "emulate" AND NOT CMAKE_CUDA_COMPILER)
    message(FATAL_ERROR "orcu_tuned_sources(${target}): no CUDA compiler found; use BACKEND emulate to build without one")
  endif()
  if(ORCU_BACKEND STREQUAL "emulate" AND NOT CMAKE_CXX_COMPILER)
    message(FATAL_ERROR "orcu_tuned_sources(${target}): BACKEND emulate needs a C++ compiler, and none was found")
  endif()
  if(ORCU_TUNE)
    set(command tune)
  else()
    set(command apply)
  endif()
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/orcu")
  file(MAKE_DIRECTORY "${out_dir}")
  foreach(source IN LISTS ORCU_UNPARSED_ARGUMENTS)
    get_filename_component(path "${source}" ABSOLUTE)
    get_filename_component(name "${source}" NAME_WE)
    get_filename_component(source_dir "${path}" DIRECTORY)
    set(tuned "${out_dir}/${name}.tuned.cu")
    set(depends "${path}")
    if(EXISTS "${path}.orcu.yaml")
      list(APPEND depends "${path}.orcu.yaml")
    endif()
    add_custom_command(
      OUTPUT "${tuned}" "${out_dir}/${name}.tuned.h"
      COMMAND "${ORCU_EXECUTABLE}" ${command} "${path}" -o "${tuned}" --backend ${ORCU_BACKEND} ${ORCU_OPTIONS}
      DEPENDS ${depends}
      COMMENT "orcu ${command} ${source}"
      VERBATIM)
    target_sources(${target} PRIVATE "${tuned}")
    set_property(SOURCE "${tuned}" APPEND PROPERTY INCLUDE_DIRECTORIES "${source_dir}")
    if(ORCU_BACKEND STREQUAL "emulate")
      set_source_files_properties("${tuned}" PROPERTIES LANGUAGE CXX COMPILE_OPTIONS "-x;c++;-std=c++17")
      set_property(SOURCE "${tuned}" APPEND PROPERTY INCLUDE_DIRECTORIES "${ORCU_EMULATION_DIR}")
    else()
      set_source_files_properties("${tuned}" PROPERTIES LANGUAGE CUDA)
    endif()
  endforeach()
  target_include_directories(${target} PRIVATE "${out_dir}")
  if(ORCU_BACKEND STREQUAL "emulate")
    set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
  endif()
endfunction()
