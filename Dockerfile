# visx with Debian's Chromium. Build: docker build -t visx .
# Run:   docker run --rm -v "$PWD:/data" visx extract https://example.org -o /data/out.csv
FROM python:3.11-slim-bookworm
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*
ENV VISX_CHROMIUM=/usr/lib/chromium/chromium
WORKDIR /app
COPY pyproject.toml README.md ./
COPY visx ./visx
RUN pip install --no-cache-dir .
WORKDIR /data
ENTRYPOINT ["visx"]
CMD ["--help"]
