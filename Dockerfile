# Build stage: compile TypeScript with the exact locked dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY blocks ./blocks
RUN npx tsc -p tsconfig.build.json && npm prune --omit=dev

# Runtime stage: production dependencies and the compiled output only, as a non-root user.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
USER node
EXPOSE 3000
STOPSIGNAL SIGTERM
CMD ["node", "dist/src/cli.js"]
