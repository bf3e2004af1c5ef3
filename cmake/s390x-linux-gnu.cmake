# Cross toolchain: Linux on s390x (IBM Z, big-endian, 64-bit) with Debian's
# gcc-s390x-linux-gnu and libc6-dev-s390x-cross. The only big-endian target
# the suite runs on: it tests byte order instead of assuming it.
#   cmake -S . -B build-s390x \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/s390x-linux-gnu.cmake -DJET_BUILD_BENCH=OFF
#   scripts/run-tests.sh build-s390x
# Test programs run through qemu-user (package qemu-user), which finds the
# target's loader and libc under the cross sysroot given by -L.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR s390x)

set(JET_CROSS_TRIPLE s390x-linux-gnu)
set(CMAKE_C_COMPILER ${JET_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${JET_CROSS_TRIPLE}-g++)
set(JET_CROSS_SYSROOT /usr/${JET_CROSS_TRIPLE})

set(CMAKE_FIND_ROOT_PATH ${JET_CROSS_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

find_program(JET_QEMU_S390X qemu-s390x)
if(JET_QEMU_S390X)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${JET_QEMU_S390X} -L ${JET_CROSS_SYSROOT})
endif()
