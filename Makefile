PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
HOOKDIR ?= $(PREFIX)/share/vault/hooks

SWIFT ?= swift
# Static Swift and C++ runtimes and no RUNPATH: the binary needs only glibc and
# libcrypto, and the loader probes no toolchain directories (scripts/release-flags.sh).
# Expanded only by the targets that build the installed binary (release,
# install, bench, deb), so the others never run the script.
RELEASE_FLAGS = $(eval RELEASE_FLAGS := $(shell scripts/release-flags.sh))$(if $(filter release,$(RELEASE_FLAGS)),$(RELEASE_FLAGS),$(error scripts/release-flags.sh printed no release flags))
HELPER_LINKS = git-credential-vault docker-credential-vault
# Terraform runs a credentials helper only from a plugin directory, never from PATH, and the only
# ones it searches are the user's (~/.terraform.d/plugins): the link goes here, and each user links
# it there (docs/INTEGRATIONS.md), or `make install TERRAFORM_PLUGIN_DIR=$$HOME/.terraform.d/plugins`.
TERRAFORM_PLUGIN_DIR ?= $(PREFIX)/lib/vault/terraform-plugins
TERRAFORM_HELPER = terraform-credentials-vault

.PHONY: all deps build release test check check-fast format fuzz-smoke demo generate install uninstall clean bench reliability fuzz deb

all: build

build:
	$(SWIFT) build

release:
	$(SWIFT) build $(RELEASE_FLAGS)

# The one command a newcomer runs: its three steps, each runnable alone.
test: deps
	@$(MAKE) --no-print-directory check
	@$(MAKE) --no-print-directory fuzz-smoke

# Installs the Debian packages that building and testing need (only what is missing).
deps:
	@scripts/install-deps.sh

# Every test and check, without installing or fuzzing.
check:
	scripts/check.sh

# The quick loop while working on the code: builds and runs the unit and
# end-to-end suites, without apt, the keyring daemon (its suite is filtered
# out, not skipped), the Debian package or fuzzing. `make test` runs everything.
check-fast:
	scripts/check-fast.sh

# Lays out every Swift source as .swift-format says (check-fast fails on a file it would change).
format:
	scripts/format.sh

# Replays the committed fuzz inputs, then fuzzes each harness for FUZZ_SMOKE_SECONDS (default 5).
fuzz-smoke:
	scripts/fuzz.sh $(or $(FUZZ_SMOKE_SECONDS),5)

demo: build
	scripts/demo.sh

# Times vault against the floor and its peers; writes bench/RESULTS.md (bench/README.md).
bench: deps release
	RELEASE_FLAGS="$(RELEASE_FLAGS)" bench/run.sh

# Crash, concurrency, fault-injection and bad-input tests at full scale, the suite under ASan, and fuzzing.
reliability: deps
	scripts/reliability.sh

# Every libFuzzer harness in Fuzz/Harnesses for FUZZ_SECONDS (default 60) each.
fuzz: deps
	scripts/fuzz.sh $(FUZZ_SECONDS)

generate:
	scripts/generate.sh

# A Debian package in dist/ (package vault-keychain; see README, "Install").
deb:
	RELEASE_FLAGS="$(RELEASE_FLAGS)" scripts/deb.sh

# The man page and completions are generated and committed (make generate);
# a missing one is named, never skipped.
install: release
	@for f in man/vault.1 completions/vault.bash completions/_vault completions/vault.fish; do \
		[ -f "$$f" ] || { echo "make: $$f is missing; run 'make generate' and commit it" >&2; exit 1; }; \
	done
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)/man1" \
		"$(DESTDIR)$(BASHCOMPDIR)" "$(DESTDIR)$(ZSHCOMPDIR)" "$(DESTDIR)$(FISHCOMPDIR)" "$(DESTDIR)$(HOOKDIR)"
	install -m 0755 "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/vault" "$(DESTDIR)$(BINDIR)/vault"
	# git and docker run their credential helpers by these names; vault answers to them.
	for helper in $(HELPER_LINKS); do ln -sf vault "$(DESTDIR)$(BINDIR)/$$helper"; done
	install -d "$(DESTDIR)$(TERRAFORM_PLUGIN_DIR)"
	ln -sf "$(BINDIR)/vault" "$(DESTDIR)$(TERRAFORM_PLUGIN_DIR)/$(TERRAFORM_HELPER)"
	install -m 0644 man/vault.1 "$(DESTDIR)$(MANDIR)/man1/vault.1"
	install -m 0644 completions/vault.bash "$(DESTDIR)$(BASHCOMPDIR)/vault"
	install -m 0644 completions/_vault "$(DESTDIR)$(ZSHCOMPDIR)/_vault"
	install -m 0644 completions/vault.fish "$(DESTDIR)$(FISHCOMPDIR)/vault.fish"
	install -m 0755 contrib/hooks/pre-receive "$(DESTDIR)$(HOOKDIR)/pre-receive"

uninstall:
	for helper in $(HELPER_LINKS); do rm -f "$(DESTDIR)$(BINDIR)/$$helper"; done
	rm -f "$(DESTDIR)$(TERRAFORM_PLUGIN_DIR)/$(TERRAFORM_HELPER)"
	rm -f "$(DESTDIR)$(BINDIR)/vault" "$(DESTDIR)$(MANDIR)/man1/vault.1" \
		"$(DESTDIR)$(BASHCOMPDIR)/vault" "$(DESTDIR)$(ZSHCOMPDIR)/_vault" \
		"$(DESTDIR)$(FISHCOMPDIR)/vault.fish" "$(DESTDIR)$(HOOKDIR)/pre-receive"

clean:
	rm -rf .build dist
