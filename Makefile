# A thin front end over CMake: the README's two commands are `make demo` and
# `make test`. Each installs what is missing, configures and builds first.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
# CMake's Makefiles call make within make: without this every one of them
# prints "Entering/Leaving directory" around its work.
MAKEFLAGS += --no-print-directory

# CI builds with warnings as errors.
ifneq ($(CI),)
CMAKE_FLAGS += -DWARNINGS_AS_ERRORS=ON
endif
# Without a CUDA toolkit only the advisor builds (a laptop linting CUDA code).
ifeq ($(shell command -v nvcc || test -x /usr/local/cuda/bin/nvcc && echo yes),)
CMAKE_FLAGS += -DWITH_CUDA=OFF
endif

.PHONY: all deps configure build demo test gpu-check clean

all: build

deps:
	scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# The demo builds first itself, keeping the compiler's output (ptxas
# resource reports) in $(BUILD)/demo/build.log instead of on the screen.
demo: configure
	scripts/demo.sh $(BUILD) $(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

gpu-check:
	scripts/gpu-check.sh

clean:
	rm -rf $(BUILD)
