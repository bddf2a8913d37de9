#!/usr/bin/env bash
# Makes the image sidecar/Dockerfile starts FROM (debian:bookworm-slim) out of Debian's own packages,
# for machines that reach Debian's mirror and the npm registry but not Docker Hub. Elsewhere
# `docker build` simply pulls it. Needs root, debootstrap and docker; takes about three minutes.
# Certificate authorities this machine adds to its trust (/usr/local/share/ca-certificates, e.g. a
# TLS-inspecting proxy's) go into the image too, so npm and apt inside the build trust what the host trusts.
set -euo pipefail
tag="${1:-debian:bookworm-slim}"
mirror="$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)"
mirror="${mirror:-http://deb.debian.org/debian}"
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase bookworm "$root" "$mirror"
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
extra=()
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  mkdir -p "$root/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  # Node reads its own CA list; this adds the system's (complete once the build installs ca-certificates).
  extra=(--change "ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt")
fi
tar -C "$root" -c . | docker import "${extra[@]}" --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - "$tag"
echo "made $tag from $mirror"
