# Installing and packaging: both binaries (and the tune build when it is built) in bin, the example configurations
# and opening suites under share/shogi-arena (a config's `../openings/...` resolves there as in the source tree,
# and its `cmd: shogi-arena-engine` finds the engine beside shogi-arena), the README and licence as documentation.
#   cmake --install build --prefix /usr/local       or       (cd build && cpack)   ->   shogi-arena_<ver>_amd64.deb
# A package for other machines is built with -DPORTABLE=ON (the default build targets this machine's CPU).
include(GNUInstallDirs)
install(TARGETS shogi-arena-engine RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET shogi-arena)
  install(TARGETS shogi-arena RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
if(TARGET shogi-arena-engine-tune)
  install(TARGETS shogi-arena-engine-tune RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(DIRECTORY ${CMAKE_SOURCE_DIR}/configs ${CMAKE_SOURCE_DIR}/openings
        DESTINATION ${CMAKE_INSTALL_DATADIR}/shogi-arena)
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/LICENSE
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/shogi-arena)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME shogi-arena)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "USI shogi engine match runner (gauntlets, SPRT, SPSA, CSA) and its engine")
set(CPACK_PACKAGE_CONTACT "Shogi Arena developers")
set(CPACK_DEBIAN_PACKAGE_NAME shogi-arena)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # shogi-arena_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION games)
# The shared libraries the binaries link (libyaml-cpp, libcrypto, libstdc++ ...) become Depends: by dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
include(CPack)
