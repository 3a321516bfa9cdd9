# orcu for Make: include $(shell orcu --make-include)
#
# Set these before the include. %.tuned.cu and %.tuned.h come from %.c: `orcu apply` (the results database), or
# `orcu tune` with ORCU_COMMAND = tune; ORCU_FLAGS holds more orcu options (--backend,
# --budget, --input...). %.tuned.o is compiled by nvcc, or with ORCU_EMULATE = 1 by the C++
# compiler against orcu's CPU emulation (no GPU, no nvcc). Link with $(ORCU_LDLIBS).
ORCU ?= orcu
ORCU_COMMAND ?= apply
ORCU_FLAGS ?=
NVCC ?= nvcc
NVCCFLAGS ?= -O2
ORCU_EMULATION_INCLUDE := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))../emulation)

# The tuned files stay (make would delete them as intermediates): they are worth reading.
.PRECIOUS: %.tuned.cu %.tuned.h

%.tuned.cu %.tuned.h: %.c
	$(ORCU) $(ORCU_COMMAND) $< -o $*.tuned.cu $(ORCU_FLAGS)

ifeq ($(ORCU_EMULATE),1)
%.tuned.o: %.tuned.cu
	$(CXX) -x c++ -std=c++17 -O2 -I$(ORCU_EMULATION_INCLUDE) -I$(dir $<) $(CPPFLAGS) -c $< -o $@
ORCU_LDLIBS = -lstdc++ -lm
else
%.tuned.o: %.tuned.cu
	$(NVCC) $(NVCCFLAGS) -I$(dir $<) $(CPPFLAGS) -c $< -o $@
ORCU_LDLIBS = -lcudart -lstdc++ -lm
endif
