import { Module } from '@nestjs/common';
import { CryptoEstimatesController, DiscoveriesController, VaspsController } from './directories.controller.js';
import { DirectoriesService } from './directories.service.js';

/**
 * The directories and estimates (docs/directories.md): `GET /vasps`, `GET /discoveries` and
 * `POST /crypto/estimate-withdrawal-fee`, over the data the deployment ships and DIRECTORY_EXTRA_FILE.
 */
@Module({
  controllers: [VaspsController, DiscoveriesController, CryptoEstimatesController],
  providers: [DirectoriesService],
})
export class DirectoriesModule {}
