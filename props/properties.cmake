# NEFFBAR_PROPERTIES: the names of props/registry.h's properties, read from its
# `Property<...>{"name"` entries (the registry is the only list).  fuzz/targets.cmake
# makes one prop_<name> fuzz target of each; props_tests checks (drivers_test.cpp) that
# what this reads is exactly the registry, so an entry written so that this misses it
# fails there.  Read by fuzz/ (which builds on props/), never the other way.
set(_registry ${CMAKE_CURRENT_LIST_DIR}/registry.h)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_registry})
file(STRINGS ${_registry} _entries REGEX "Property<[A-Za-z0-9_]+>{\"[a-z0-9_]+\"")
set(NEFFBAR_PROPERTIES)
foreach(_entry IN LISTS _entries)
  string(REGEX MATCH "Property<[A-Za-z0-9_]+>{\"([a-z0-9_]+)\"" _ "${_entry}")
  list(APPEND NEFFBAR_PROPERTIES ${CMAKE_MATCH_1})
endforeach()
if(NOT NEFFBAR_PROPERTIES)
  message(FATAL_ERROR "props/properties.cmake: no Property<...>{\"name\" entry in ${_registry}")
endif()
