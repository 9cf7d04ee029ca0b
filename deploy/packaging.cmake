# packaging.cmake - install rules and CPack .deb/.rpm (included by CMakeLists.txt).
#   cmake --install build --prefix /usr        # or: cd build && cpack -G DEB (and RPM)
# Layout (FHS, as Debian packages lay out files):
#   bin/bench-coord, bin/bench-agent
#   lib/systemd/system/bench-agent.service (ExecStart at this prefix's bin/; /usr/lib on
#   Debian 12's merged /usr)
#   /etc/bench-agent.json, /etc/default/bench-agent (configuration files: kept on upgrade)
#   share/man/man1/bench-coord.1.gz, man5/bench-coord-profile.5.gz, man8/bench-agent.8.gz
#   share/bash-completion/completions/bench-coord, bench-agent
#   share/doc/bench-coord/ (README, docs/*.md, copyright, changelog.gz, examples/profiles)
include(GNUInstallDirs)

install(TARGETS bench-coord bench-agent RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# the unit as deploy/systemd has it, with the binary where this install puts it: written at
# install time, when CMAKE_INSTALL_PREFIX is the one in use (CPack's /usr, not the build's)
set(BC_UNITDIR "lib/systemd/system" CACHE STRING "systemd unit directory (relative: under the prefix)")
install(CODE "
	file(READ \"${CMAKE_SOURCE_DIR}/deploy/systemd/bench-agent.service\" unit)
	string(REPLACE \"/usr/local/bin/bench-agent\" \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/bench-agent\" unit \"\${unit}\")
	set(dst \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${BC_UNITDIR}\")
	file(MAKE_DIRECTORY \"\${dst}\")
	file(WRITE \"\${dst}/bench-agent.service\" \"\${unit}\")
	message(STATUS \"Installing: \${dst}/bench-agent.service\")
")
install(FILES ${CMAKE_SOURCE_DIR}/deploy/systemd/bench-agent.json DESTINATION /etc)
install(FILES ${CMAKE_SOURCE_DIR}/deploy/systemd/bench-agent.default DESTINATION /etc/default
	RENAME bench-agent)

# man pages, compressed as Debian policy wants them (gzip -9n: no name, no timestamp)
find_program(BC_GZIP gzip)
set(BC_MANS man/bench-coord.1 man/bench-coord-profile.5 man/bench-agent.8)
foreach(m ${BC_MANS})
	get_filename_component(base ${m} NAME)
	string(REGEX REPLACE ".*\\." "" sec ${base})
	add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/pkg/${base}.gz
		COMMAND ${BC_GZIP} -9nc ${CMAKE_SOURCE_DIR}/${m} > ${CMAKE_BINARY_DIR}/pkg/${base}.gz
		DEPENDS ${CMAKE_SOURCE_DIR}/${m} VERBATIM)
	list(APPEND BC_MAN_GZ ${CMAKE_BINARY_DIR}/pkg/${base}.gz)
	install(FILES ${CMAKE_BINARY_DIR}/pkg/${base}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man${sec})
endforeach()
# who answers for the package (the .deb's Maintainer, the .rpm's Packager, the changelog's
# signature): whoever builds packages to hand out sets their own, -DBC_MAINTAINER="Name <a@b.c>"
# (docs/packaging.md). The default names the project at an address that exists but reads no
# mail; lintian accepts it (it rejects no name, a malformed address, localhost, root).
set(BC_MAINTAINER "bench-coord maintainers <bench-coord@users.noreply.github.com>" CACHE STRING
	"package Maintainer (Name <address>)")
set(BC_VENDOR "bench-coord" CACHE STRING "the .rpm's Vendor")
# the form Debian policy 5.6.2 asks for, checked here rather than by a failed lintian later
# (its errors malformed-contact, no-phrase, bogus-mail-host, root-in-contact)
if(NOT BC_MAINTAINER MATCHES "^[^<>@]*[^<>@ ] <[^<>@ ]+@[^<>@ ]+\\.[^<>@ .]+>$"
	OR BC_MAINTAINER MATCHES "@(localhost|[^>]*\\.localdomain)>$"
	OR BC_MAINTAINER MATCHES "^root <|<root@")
	message(FATAL_ERROR "BC_MAINTAINER: expected \"Name <user@host.domain>\" with a real mail "
		"host (Debian policy 5.6.2), got \"${BC_MAINTAINER}\"")
endif()
configure_file(${CMAKE_SOURCE_DIR}/deploy/pkg/changelog.in ${CMAKE_BINARY_DIR}/pkg/changelog @ONLY)
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/pkg/changelog.gz
	COMMAND ${BC_GZIP} -9nc ${CMAKE_BINARY_DIR}/pkg/changelog > ${CMAKE_BINARY_DIR}/pkg/changelog.gz
	DEPENDS ${CMAKE_BINARY_DIR}/pkg/changelog VERBATIM)
add_custom_target(bc_pkgfiles ALL DEPENDS ${BC_MAN_GZ} ${CMAKE_BINARY_DIR}/pkg/changelog.gz)

install(FILES deploy/bash-completion/bench-coord deploy/bash-completion/bench-agent
	DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
set(BC_DOCDIR ${CMAKE_INSTALL_DATADIR}/doc/bench-coord)
install(FILES README.md deploy/pkg/copyright ${CMAKE_BINARY_DIR}/pkg/changelog.gz
	DESTINATION ${BC_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${BC_DOCDIR}/docs FILES_MATCHING PATTERN "*.md")
install(DIRECTORY profiles/ DESTINATION ${BC_DOCDIR}/examples/profiles
	FILES_MATCHING PATTERN "*.json")

# ---- CPack: one package with both binaries (a client host ignores bench-coord) ----
set(CPACK_PACKAGE_NAME bench-coord)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${BC_MAINTAINER}")
set(CPACK_PACKAGE_VENDOR "${BC_VENDOR}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "distributed storage benchmark (coordinator and agent)")
set(CPACK_PACKAGE_DESCRIPTION "bench-coord runs JSON benchmark profiles on bench-agent daemons
over ZeroMQ/CURVE: agents drive io_uring against files and block devices and
stream per-second statistics with latency histograms; the coordinator merges
them per volume, client host, storage node and in total, writes a run
directory with reports and gives a saturation verdict.")
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_FILE_NAME_DEB_RPM_DEFAULT ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_SET_DESTDIR OFF)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_SOURCE_DIR}/deploy/pkg/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# CPackRPM reads neither CPACK_PACKAGE_DESCRIPTION nor the contact: said again for it
set(CPACK_RPM_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_RPM_SPEC_MORE_DEFINE "%define packager ${BC_MAINTAINER}")
set(CPACK_RPM_PACKAGE_LICENSE "unspecified")
set(CPACK_RPM_PACKAGE_GROUP "Applications/System")
set(CPACK_RPM_PACKAGE_AUTOREQ ON)
set(CPACK_RPM_USER_FILELIST "%config(noreplace) /etc/bench-agent.json"
	"%config(noreplace) /etc/default/bench-agent")
set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION /etc /etc/default /lib /lib/systemd
	/usr/lib/systemd /usr/lib/systemd/system
	/lib/systemd/system /usr/share/bash-completion /usr/share/bash-completion/completions
	/usr/share/man /usr/share/man/man1 /usr/share/man/man5 /usr/share/man/man8)
set(CPACK_GENERATOR DEB)
find_program(BC_RPMBUILD rpmbuild)
if(BC_RPMBUILD)
	list(APPEND CPACK_GENERATOR RPM)
endif()
include(CPack)
