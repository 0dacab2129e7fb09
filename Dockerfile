# visx with Debian's Chromium and every output format (the `all` extra: Parquet, pandas,
# the eval chart). Not built on the development machines (no Docker engine there); the
# two pip steps were checked in a plain virtual environment.
# Build: docker build -t visx .
# Run:   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/data" visx \
#            extract https://example.org -o /data/out.csv
FROM python:3.11-slim-bookworm

# Debian's chromium is not pinned: its security updates replace the old version.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --create-home --uid 10001 --user-group visx \
 && mkdir /data && chown visx:visx /data
ENV VISX_CHROMIUM=/usr/lib/chromium/chromium \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
# 1. The dependencies, from the project file alone: a change to the code or the README
#    reuses this layer. (visx/version.py gives the version, an empty README.md stands in
#    for the real one; the package itself comes in step 2.)
COPY pyproject.toml LICENSE ./
COPY visx/version.py visx/version.py
# hadolint ignore=DL3013
RUN touch README.md && pip install '.[all]'
# 2. The code, without touching the dependencies.
COPY README.md ./
COPY visx ./visx
RUN pip install --no-deps .

# Chromium runs as an ordinary user (visx, made above). visx always passes
# --disable-dev-shm-usage, so the 64 MB /dev/shm of a container is not a problem (README, "Docker").
USER 10001:10001
WORKDIR /data
ENTRYPOINT ["visx"]
CMD ["--help"]
