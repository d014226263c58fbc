# Node 26 "Lithium": the Active LTS line since 2026-10-28, supported until April 2029 (Node 20 reached its end of
# life in April 2026; 24 "Krypton" has been in maintenance since 2026-10-20). `engines` still admits Node 20.
# Build stage: compile TypeScript with the exact locked dependencies.
FROM node:26-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY blocks ./blocks
RUN npx tsc -p tsconfig.build.json && npm prune --omit=dev

# Runtime stage: production dependencies and the compiled output only, as a non-root user.
FROM node:26-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
USER node
EXPOSE 3000
STOPSIGNAL SIGTERM
CMD ["node", "dist/src/cli.js"]
