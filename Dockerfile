# The bot in a container: docker compose up -d (see compose.yaml and docs/hosting.md).
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/rummy.sqlite3 \
    HEALTH_PORT=8080 \
    HEALTH_HOST=0.0.0.0 \
    LOG_FORMAT=json \
    LOCAL_PLAY=off \
    WEB_HOST=0.0.0.0 \
    WEB_PORT=8081

WORKDIR /app
# Dependencies first: a change to the code alone reuses this layer.
COPY requirements-bot.txt ./
RUN pip install -r requirements-bot.txt

COPY bot.py ./
COPY app ./app
COPY cogs ./cogs
# The Activity's server and its page (.dockerignore leaves out the SDK's build folder).
COPY web ./web
COPY chat ./chat
COPY presentation ./presentation
COPY game ./game
COPY tables ./tables
COPY transport ./transport
COPY engine ./engine
COPY db ./db

# Never root; the database lives on the volume, owned by the bot's user.
RUN useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin rummy \
    && mkdir /data && chown rummy:rummy /data
USER rummy
VOLUME ["/data"]
# 8080: /healthz and /metrics. 8081: the Activity (only with DISCORD_CLIENT_SECRET set).
EXPOSE 8080 8081

# SIGTERM is what the bot stops gracefully on: clicks in flight finish and are saved.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=4)"]
CMD ["python", "bot.py"]
