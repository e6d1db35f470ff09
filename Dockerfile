# svc-conformance in a container. Build from a clone:
#   docker build -t svc-conformance .
# Run against a cluster (reports land in ./results on the host):
#   docker run --rm -v ~/.kube/config:/kube/config:ro -v "$PWD/results:/work/results" \
#     svc-conformance run --kubeconfig /kube/config --profile k8s
# Or against the embedded reference target: docker run --rm svc-conformance run
#
# Stage 1 builds the package exactly as `npm pack` ships it; stage 2 installs that tarball, so the
# image holds what a user's `npm i svc-conformance` holds and nothing of the repository besides.
FROM node:20-bookworm-slim AS pack
WORKDIR /src
COPY . .
RUN npm ci --no-audit --no-fund && npm pack --pack-destination /tmp

FROM node:20-bookworm-slim
# openssl: the reference controller daemon makes its self-signed certificate with it.
RUN apt-get update && apt-get install -y --no-install-recommends openssl && rm -rf /var/lib/apt/lists/*
COPY --from=pack /tmp/svc-conformance-*.tgz /tmp/
# Only the runtime dependencies (undici, @kubernetes/client-node): the compiled CLI and the reference
# daemon were bundled when the tarball was built, so nothing is compiled or written into the install.
RUN npm install --global --omit=dev --no-audit --no-fund /tmp/svc-conformance-*.tgz && rm /tmp/svc-conformance-*.tgz
USER node
WORKDIR /work
ENTRYPOINT ["svc-conformance"]
CMD ["--help"]
