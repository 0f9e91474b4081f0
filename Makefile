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

# Slurm and munge for the sweep engine test (cmd/mrbound TestSweepOnSlurm,
# which starts its own one-node cluster): installed from Debian when missing,
# as root with apt-get (apt-get update only if the first try fails). When they
# cannot be installed, make test goes on and that test skips, saying why.
slurm:
	@have() { command -v $$1 >/dev/null 2>&1 || test -x /usr/sbin/$$1; }; \
	if ! have slurmctld || ! have slurmd || ! have munged || ! have sbatch; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing slurm-wlm and munge with apt-get (for the Slurm sweep test)"; \
	    install="apt-get install -y -qq --no-install-recommends slurm-wlm munge"; \
	    DEBIAN_FRONTEND=noninteractive $$install >/dev/null 2>&1 || \
	    { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive $$install >/dev/null 2>&1; } || \
	    echo "could not install slurm-wlm and munge: the Slurm sweep test will skip"; \
	  else \
	    echo "slurm-wlm and munge are missing and apt-get is not usable here (root needed): the Slurm sweep test will skip"; \
	  fi; \
	fi

# python3 for the external-policy tests (policy/external: the conformance
# suite and the trace identity on the Python FIFO of clients/python): from
# Debian when missing, as root with apt-get, like slurm; else those tests skip.
python:
	@if ! command -v python3 >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing python3 with apt-get (for the external-policy tests)"; \
	    install="apt-get install -y -qq --no-install-recommends python3"; \
	    DEBIAN_FRONTEND=noninteractive $$install >/dev/null 2>&1 || \
	    { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive $$install >/dev/null 2>&1; } || \
	    echo "could not install python3: the external-policy tests will skip"; \
	  else \
	    echo "python3 is missing and apt-get is not usable here (root needed): the external-policy tests will skip"; \
	  fi; \
	fi

# rsvg-convert (Debian's librsvg2-bin) renders every kind of SVG chart the CLI
# writes to PNG in cmd/mrbound TestSVGRendersToPNG, so that a broken chart
# fails the suite: installed like slurm above; without it that test skips.
rsvg:
	@if ! command -v rsvg-convert >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing librsvg2-bin with apt-get (for the SVG rendering test)"; \
	    install="apt-get install -y -qq --no-install-recommends librsvg2-bin"; \
	    DEBIAN_FRONTEND=noninteractive $$install >/dev/null 2>&1 || \
	    { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive $$install >/dev/null 2>&1; } || \
	    echo "could not install librsvg2-bin: the SVG rendering test will skip"; \
	  else \
	    echo "rsvg-convert is missing and apt-get is not usable here (root needed): the SVG rendering test will skip"; \
	  fi; \
	fi

# glpsol (Debian's glpk-utils) and cbc (coinor-cbc), used only as test
# oracles: the MPS and LP writers' files solved by GLPK and read by CBC, and
# the native simplex against GLPK on random LPs. Installed like slurm above;
# without them those tests skip, saying so.
oracles:
	@if ! command -v glpsol >/dev/null 2>&1 || ! command -v cbc >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing glpk-utils and coinor-cbc with apt-get (test oracles only)"; \
	    install="apt-get install -y -qq --no-install-recommends glpk-utils coinor-cbc"; \
	    DEBIAN_FRONTEND=noninteractive $$install >/dev/null 2>&1 || \
	    { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive $$install >/dev/null 2>&1; } || \
	    echo "could not install glpk-utils and coinor-cbc: the solver-oracle tests will skip"; \
	  else \
	    echo "glpsol or cbc is missing and apt-get is not usable here (root needed): the solver-oracle tests will skip"; \
	  fi; \
	fi

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
