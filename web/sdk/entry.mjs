// The one module the Activity page imports (as /static/vendor/embedded-app-sdk.js).
// Only what the page uses is re-exported, so esbuild can leave the rest of the SDK out;
// add a name here (see output/index.d.ts in the package for what exists) and rebuild.
export {
  Common,
  DiscordSDK,
  DiscordSDKMock,
  Events,
  patchUrlMappings,
} from "@discord/embedded-app-sdk";
