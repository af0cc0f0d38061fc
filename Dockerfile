# crewline in a container: the wheel built from this checkout with every platform, run as a
# non-root user, its data on a volume, healthy when /readyz says so.
#   docker build -t crewline .   (or: docker compose up -d, see compose.yaml)

FROM python:3.12-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /dist .

FROM python:3.12-slim
RUN useradd --system --uid 10001 --user-group --home-dir /data --no-create-home crewline \
    && install -d -m 0700 -o crewline -g crewline /data
COPY --from=build /dist/ /dist/
RUN pip install --no-cache-dir "$(ls /dist/crewline-*.whl)[all]" && rm -rf /dist
# Listening on every address of the container: the local inbox then asks for the login
# token it prints at start (docs/local-inbox.md).
ENV CREWLINE_DATA_DIR=/data \
    CREWLINE_HOST=0.0.0.0 \
    CREWLINE_PORT=8765 \
    PYTHONUNBUFFERED=1
VOLUME ["/data"]
USER crewline
WORKDIR /data
EXPOSE 8765
# urlopen raises on a 503, so a part that is not ready fails the check. The port is the one
# crewline listens on: CREWLINE_PORT, when a run or compose file sets another.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + (os.environ.get('CREWLINE_PORT') or '8765') + '/readyz', timeout=4)"]
CMD ["crewline", "serve"]
