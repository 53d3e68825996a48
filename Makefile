# elem: generate, verify, test, test-cross, bench. `make test` is what CI runs.
GO ?= go
GENERATED := kernel_amd64.s kernel_amd64.go kernel_switch_amd64.go kernel_arm64.s kernel_arm64.go kernel_switch_arm64.go ops_generated.go
# Implementations this machine can run, as ELEM_IMPL names.
IMPLS = $(shell $(GO) run ./cmd/elembench -impls)

.PHONY: generate verify test test-native test-cross bench

generate:
	$(GO) generate ./...

# gofmt, go vet (with the asm checks) for amd64 and arm64, and a regeneration
# that must not change a byte of the committed output.
verify:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go') $$(git ls-files --others --exclude-standard '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	GOARCH=arm64 $(GO) vet ./...
	@before=$$(cat $(GENERATED) | sha256sum); $(MAKE) -s generate; \
	  if [ "$$before" != "$$(cat $(GENERATED) | sha256sum)" ]; then \
	    echo "generated files were stale: they are regenerated now; commit them"; exit 1; fi

test: verify test-native
	@if command -v qemu-aarch64 >/dev/null 2>&1; then $(MAKE) -s test-cross; \
	  else echo "SKIP test-cross: qemu-user is not installed (apt-get install qemu-user)"; fi

# The whole suite under every implementation this CPU has, and with purego.
test-native:
	@for impl in $(IMPLS); do echo "== ELEM_IMPL=$$impl"; ELEM_IMPL=$$impl $(GO) test -count=1 ./... || exit 1; done
	@echo "== purego"; $(GO) test -count=1 -tags purego ./...

# Other architectures under Debian's qemu-user and node: arm64 runs the whole
# suite (generic and NEON kernels) by default and with purego; riscv64,
# ppc64le and s390x (big-endian) run the generic kernels; js/wasm runs under
# node; 386 is built and vetted only. Emulated runs use -short: the exhaustive
# kernel tests try 4 start offsets instead of 16.
QEMU_GOARCHES = riscv64 ppc64le s390x

test-cross:
	@for tool in qemu-aarch64 $(addprefix qemu-,$(QEMU_GOARCHES)) node; do \
	  command -v $$tool >/dev/null 2>&1 || { echo "test-cross: $$tool not found (apt-get install qemu-user nodejs)"; exit 1; }; done
	@echo "== arm64 (qemu-aarch64)"; GOARCH=arm64 $(GO) test -short -count=1 -exec qemu-aarch64 ./...
	@echo "== arm64 purego (qemu-aarch64)"; GOARCH=arm64 $(GO) test -short -count=1 -tags purego -exec qemu-aarch64 ./...
	@for arch in $(QEMU_GOARCHES); do echo "== $$arch (qemu-$$arch)"; \
	  GOARCH=$$arch $(GO) test -short -count=1 -exec qemu-$$arch ./... || exit 1; done
	@echo "== js/wasm (node)"; GOOS=js GOARCH=wasm $(GO) test -short -count=1 -exec "$$($(GO) env GOROOT)/lib/wasm/go_js_wasm_exec" ./...
	@echo "== 386 (build and vet)"; GOARCH=386 $(GO) build ./... && GOARCH=386 $(GO) vet ./...

bench:
	$(GO) test -run '^$$' -bench . -count 6 ./...
