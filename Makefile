# mrbound — the two set-up commands of the README are `make demo` and `make test`.
# Each does all the set-up it needs: Go modules and the pinned HiGHS npm package.

GO      ?= go
BIN     := bin/mrbound
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo dev)
HIGHS   := node_modules/highs/build/highs.wasm

.PHONY: all setup build demo test fuzz bench clean

all: build

# The HiGHS WebAssembly build, pinned in package.json / package-lock.json.
$(HIGHS): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@test -f $@ && touch $@

setup: $(HIGHS)
	$(GO) mod download

build: setup
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/mrbound

# The main job on the embedded default solver: the offline optimum of a
# generated Jlassi scenario-5 instance, decoded and checked.
demo: build
	$(BIN) solve examples/scenario5.json --time-limit 60s

test: setup
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 20m ./...
	$(GO) test -run '^$$' -fuzz FuzzRead -fuzztime 10s -fuzzminimizetime 1s ./model/mps
	$(GO) test -run '^$$' -fuzz FuzzRead -fuzztime 10s -fuzzminimizetime 1s ./model/lpformat
	$(GO) test -run '^$$' -fuzz FuzzRead -fuzztime 10s -fuzzminimizetime 1s ./workload/swim

bench: setup
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
