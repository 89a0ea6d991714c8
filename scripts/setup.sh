#!/usr/bin/env bash
# Shared set-up for the quick-start commands and CI: each step checks first and installs only what is missing.
# Sourced by scripts/test.sh and scripts/demo.sh.

vk_die() { echo "venuekit: $*" >&2; exit 1; }
vk_step() { echo "==> $* (${SECONDS}s in)"; }

vk_apt_install() {
  if [ "$(id -u)" != "0" ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO=sudo; else
      vk_die "'$*' is missing and installing it needs root (apt-get). Install it yourself: sudo apt-get install -y $*"
    fi
  fi
  command -v apt-get >/dev/null 2>&1 || vk_die "'$*' is missing and this machine has no apt-get. Install $* with your package manager."
  if [ -z "${VK_APT_UPDATED:-}" ]; then
    ${SUDO:-} env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null || vk_die "apt-get update failed"
    VK_APT_UPDATED=1
  fi
  ${SUDO:-} env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null || vk_die "apt-get install $* failed"
}

# Node dependencies: npm ci when node_modules is missing or older than the lock file.
vk_ensure_deps() {
  command -v node >/dev/null 2>&1 || vk_die "Node.js 20 or newer is required (node not found)"
  local major; major=$(node -p 'process.versions.node.split(".")[0]')
  [ "$major" -ge 20 ] || vk_die "Node.js 20 or newer is required (found $(node -v))"
  # A node_modules that is a link (a git worktree sharing another checkout's) belongs to that checkout: npm ci would
  # empty it under every checkout that uses it, so it is left as it is.
  if [ -L node_modules ] && [ -f node_modules/.package-lock.json ]; then return; fi
  if [ ! -d node_modules ] || [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    vk_step "installing dependencies (npm ci)"
    local ci_out
    if ! ci_out=$(npm ci --no-audit --no-fund --loglevel=error 2>&1); then
      # npm ci refuses a lock file that lacks other platforms' optional packages (a registry mirror without
      # e.g. @deno/darwin-arm64@2.9.6 cannot lock them); npm install installs the same locked versions.
      # sed reads all of its input: under pipefail, head would end the pipe early and SIGPIPE (141) would stop the script.
      printf '%s\n' "$ci_out" | grep -v '^npm warn' | sed -n '1,6p' >&2 || true
      vk_step "npm ci refused the lock file; installing the locked versions with npm install"
      npm install --no-audit --no-fund --loglevel=error || vk_die "npm install failed"
    fi
  fi
}

# Debian's Chromium for browser tests and screenshots.
vk_ensure_chromium() {
  if [ -n "${VK_CHROMIUM:-}" ] && [ -x "$VK_CHROMIUM" ]; then return; fi
  if [ -x /usr/bin/chromium ]; then export VK_CHROMIUM=/usr/bin/chromium; return; fi
  vk_step "installing Chromium (apt-get install chromium)"
  vk_apt_install chromium
  [ -x /usr/bin/chromium ] || vk_die "Chromium did not install at /usr/bin/chromium"
  export VK_CHROMIUM=/usr/bin/chromium
}

vk_pg_answers() {
  node -e "const pg=require('pg');const c=new pg.Client({connectionString:process.argv[1],connectionTimeoutMillis:3000});c.connect().then(()=>c.query('select 1')).then(()=>c.end()).then(()=>process.exit(0),()=>process.exit(1))" "$1" >/dev/null 2>&1
}

# A PostgreSQL server for the second test pass: the one at 127.0.0.1:5432 when it answers,
# otherwise Debian's postgresql, installed and started here. Exports VK_PG_URL.
vk_ensure_postgres() {
  local url="${VK_PG_URL:-postgres://postgres@127.0.0.1:5432/test}"
  if vk_pg_answers "$url"; then export VK_PG_URL="$url"; return; fi
  local pwurl="postgres://postgres:postgres@127.0.0.1:5432/test"
  if vk_pg_answers "$pwurl"; then export VK_PG_URL="$pwurl"; return; fi
  if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    vk_step "installing PostgreSQL (apt-get install postgresql)"
    vk_apt_install postgresql
  fi
  local ver; ver=$(ls /usr/lib/postgresql | sort -n | tail -1)
  if ! pg_lsclusters 2>/dev/null | grep -q "^$ver *main"; then
    ${SUDO:-} pg_createcluster "$ver" main >/dev/null 2>&1 || true
  fi
  vk_step "starting PostgreSQL $ver"
  ${SUDO:-} pg_ctlcluster --skip-systemctl-redirect "$ver" main start >/dev/null 2>&1 || ${SUDO:-} pg_ctlcluster "$ver" main start >/dev/null 2>&1 || true
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 >/dev/null 2>&1 && break; sleep 1; done
  pg_isready -h 127.0.0.1 -p 5432 >/dev/null 2>&1 || vk_die "PostgreSQL did not start on 127.0.0.1:5432"
  ${SUDO:-} su postgres -c "psql -q -c \"alter user postgres password 'postgres'\"" >/dev/null 2>&1 || true
  ${SUDO:-} su postgres -c "psql -q -tc \"select 1 from pg_database where datname='test'\" | grep -q 1 || createdb test" >/dev/null 2>&1 || true
  if vk_pg_answers "$pwurl"; then export VK_PG_URL="$pwurl"; return; fi
  if vk_pg_answers "$url"; then export VK_PG_URL="$url"; return; fi
  vk_die "PostgreSQL is running but venuekit cannot connect as postgres to 127.0.0.1:5432/test"
}
