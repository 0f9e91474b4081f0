# mrbound — the two set-up commands of the README are `make demo` and `make test`.
# Each does all the set-up it needs: Go modules and the pinned HiGHS npm package.

GO      ?= go
BIN     := bin/mrbound
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo dev)
HIGHS   := node_modules/highs/build/highs.wasm

.PHONY: all setup slurm python rsvg oracles build demo test fuzz bench clean

all: build

# The HiGHS WebAssembly build, pinned in package.json / package-lock.json.
$(HIGHS): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@test -f $@ && touch $@

setup: $(HIGHS)
	$(GO) mod download

build: setup
	$(GO) build -ldflags "-X github.com/mrbound/mrbound/cmd/mrboundcli.version=$(VERSION)" -o $(BIN) ./cmd/mrbound

# The main job on the embedded default solver: the offline optimum of a
# generated Jlassi scenario-5 instance, decoded and checked.
demo: build
	$(BIN) solve examples/scenario5.json --time-limit 60s

# debian_install: when any of the commands $(1) is missing (on PATH or in
# /usr/sbin), install the Debian packages $(2) as root with apt-get (apt-get
# update only if the first try fails). When they cannot be installed, make
# test goes on and $(3) skip, saying why. No commas in the arguments.
define debian_install
	@have() { command -v $$1 >/dev/null 2>&1 || test -x /usr/sbin/$$1; }; \
	missing=; for c in $(1); do have $$c || missing=1; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing $(2) with apt-get (for $(3))"; \
	    install="apt-get install -y -qq --no-install-recommends $(2)"; \
	    DEBIAN_FRONTEND=noninteractive $$install >/dev/null 2>&1 || \
	    { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive $$install >/dev/null 2>&1; } || \
	    echo "could not install $(2): $(3) will skip"; \
	  else \
	    echo "$(1): missing and apt-get is not usable here (root needed): $(3) will skip"; \
	  fi; \
	fi
endef

# Slurm and munge for the sweep engine test (cmd/mrbound TestSweepOnSlurm,
# which starts its own one-node cluster).
slurm:
	$(call debian_install,slurmctld slurmd munged sbatch,slurm-wlm munge,the Slurm sweep test)

# python3 for the external-policy tests (policy/external: the conformance
# suite and the trace identity on the Python FIFO of clients/python).
python:
	$(call debian_install,python3,python3,the external-policy tests)

# rsvg-convert (Debian's librsvg2-bin) renders every kind of SVG chart the CLI
# writes to PNG in cmd/mrbound TestSVGRendersToPNG, so that a broken chart
# fails the suite.
rsvg:
	$(call debian_install,rsvg-convert,librsvg2-bin,the SVG rendering test)

# glpsol (Debian's glpk-utils) and cbc (coinor-cbc), used only as test
# oracles: the MPS and LP writers' files solved by GLPK and read by CBC, and
# the native simplex against GLPK on random LPs.
oracles:
	$(call debian_install,glpsol cbc,glpk-utils coinor-cbc,the solver-oracle tests)

test: setup slurm python rsvg oracles
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 20m ./...
	$(GO) test -run '^$$' -fuzz FuzzRead -fuzztime 200000x -fuzzminimizetime 1s ./model/mps
	$(GO) test -run '^$$' -fuzz FuzzRead -fuzztime 200000x -fuzzminimizetime 1s ./model/lpformat
	$(GO) test -run '^$$' -fuzz FuzzRead -fuzztime 200000x -fuzzminimizetime 1s ./workload/swim
	$(GO) test -run '^$$' -fuzz '^FuzzReadJobs$$' -fuzztime 30000x -fuzzminimizetime 1s ./workload/sls
	$(GO) test -run '^$$' -fuzz '^FuzzReadSynth$$' -fuzztime 30000x -fuzzminimizetime 1s ./workload/sls
	$(GO) test -run '^$$' -fuzz '^FuzzReadNodes$$' -fuzztime 30000x -fuzzminimizetime 1s ./workload/sls
	$(GO) test -run '^$$' -fuzz '^FuzzRead$$' -fuzztime 30000x -fuzzminimizetime 1s ./workload/rumen
	$(GO) test -run '^$$' -fuzz '^FuzzRead$$' -fuzztime 30000x -fuzzminimizetime 1s ./workload/jobfile
	$(GO) test -run '^$$' -fuzz '^FuzzReadSweep$$' -fuzztime 30000x -fuzzminimizetime 1s ./compare
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 10000x -fuzzminimizetime 1s ./instances/jlassiscenario
	$(GO) test -run '^$$' -fuzz FuzzParseErrors -fuzztime 10000x -fuzzminimizetime 1s ./instances/mrcpscenario
	$(GO) test -run '^$$' -fuzz FuzzParseErrors -fuzztime 10000x -fuzzminimizetime 1s ./instances/coshhscenario
	$(GO) test -run '^$$' -fuzz FuzzParseErrors -fuzztime 10000x -fuzzminimizetime 1s ./instances/tummscenario
	$(GO) test -run '^$$' -fuzz FuzzParseJSON -fuzztime 10000x -fuzzminimizetime 1s ./workload
	$(GO) test -run '^$$' -fuzz '^FuzzCheck$$' -fuzztime 50000x -fuzzminimizetime 1s ./internal/strictjson
	$(GO) test -run '^$$' -fuzz '^FuzzRepeatedKey$$' -fuzztime 50000x -fuzzminimizetime 1s ./internal/strictjson
	$(GO) test -run '^$$' -fuzz '^FuzzValueAt$$' -fuzztime 50000x -fuzzminimizetime 1s ./internal/strictjson
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeReply$$' -fuzztime 30000x -fuzzminimizetime 1s ./policy/external
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 10000x -fuzzminimizetime 1s ./sweep

bench: setup
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
